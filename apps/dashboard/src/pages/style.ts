/** The only stylesheet, served from /assets/dashboard.css (no external assets). */
export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #2456c9; --danger: #b3261e; --muted: #5f6368; --line: #d0d4da; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: Canvas; color: CanvasText; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: Canvas; padding: .5rem; }
header.top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: .75rem 1.25rem; border-bottom: 1px solid var(--line); }
header.top nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; flex-wrap: wrap; }
header.top form { display: flex; gap: .5rem; align-items: center; margin: 0; }
main { max-width: 68rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; } h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
p, ul, ol { margin: 0 0 1rem; }
label { font-weight: 600; }
input[type=text], input[type=search], select { padding: .45rem .6rem; font: inherit; border: 1px solid var(--line); border-radius: 6px; }
.inline { display: inline-flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin: 0; }
.stack > * + * { margin-top: .5rem; }
.hint { color: var(--muted); font-size: .9rem; }
button, .button { font: inherit; padding: .45rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: transparent; color: CanvasText; border-color: var(--line); }
button:disabled { opacity: .55; cursor: not-allowed; }
button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { border-left: 4px solid var(--danger); padding: .5rem .75rem; margin: 0 0 1rem; }
.notice { border-left: 4px solid var(--accent); padding: .5rem .75rem; margin: 0 0 1rem; }
table { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .45rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; word-break: break-all; }
.tags { display: flex; gap: .35rem; flex-wrap: wrap; list-style: none; padding: 0; margin: 0; }
.tags li { border: 1px solid var(--line); border-radius: 999px; padding: 0 .6rem; font-size: .9rem; }
iframe.preview { width: 100%; height: 24rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
pre { background: color-mix(in srgb, CanvasText 6%, Canvas); padding: .75rem; border-radius: 6px; overflow-x: auto; }
td > pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.pager { display: flex; gap: 1rem; }
.chart svg { display: block; width: 100%; max-width: 30rem; height: auto; }
.chart .bar { fill: var(--accent); } .chart .axis { stroke: var(--line); }
.chart text { fill: CanvasText; font-size: 11px; text-anchor: middle; }
.chart details { margin: .5rem 0 1rem; } .chart summary { cursor: pointer; }
@media (forced-colors: active) { .chart .bar { fill: CanvasText; } }
`;
