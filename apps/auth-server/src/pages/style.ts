/** The only stylesheet, served from /assets/auth.css (no external assets). */
export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #2456c9; --danger: #b3261e; --muted: #5f6368; --line: #d0d4da; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: Canvas; color: CanvasText; }
main { max-width: 34rem; margin: 3rem auto; padding: 0 1.25rem; }
main.wide { max-width: 60rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
p, ul { margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input[type=email], input[type=password], input[type=text] { width: 100%; padding: 0.6rem 0.7rem; font: inherit; border: 1px solid var(--line); border-radius: 6px; }
.hint { color: var(--muted); font-size: 0.9rem; margin: 0.25rem 0 0; }
.actions { display: flex; gap: 0.75rem; flex-wrap: wrap; margin: 1.5rem 0 1rem; }
button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: CanvasText; border-color: var(--line); }
button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { border-left: 4px solid var(--danger); padding: 0.5rem 0.75rem; margin: 0 0 1rem; }
.notice { border-left: 4px solid var(--accent); padding: 0.5rem 0.75rem; margin: 0 0 1rem; }
.scopes li { margin-bottom: 0.4rem; }
table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
th, td { text-align: left; padding: 0.5rem 0.4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
nav { display: flex; justify-content: space-between; align-items: center; gap: 1rem; margin-bottom: 2rem; }
nav form { margin: 0; }
code { font-size: 0.95em; }
#user_code { font-family: ui-monospace, monospace; font-size: 1.4rem; letter-spacing: 0.15em; text-transform: uppercase; }
`;
