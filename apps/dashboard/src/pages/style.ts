import { STACKED_LISTS } from './style-lists.js';

/** The only stylesheet, served from /assets/dashboard.css (no external assets). */
export const STYLESHEET = `
:root {
  color-scheme: light dark;
  --muted: light-dark(#59636e, #9198a1); --line: light-dark(#d1d9e0, #3d444d); --subtle: light-dark(#f6f8fa, #151b23);
  --accent: light-dark(#0969da, #4493f8); --danger: light-dark(#cf222e, #f85149); --radius: 6px;
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: Canvas; color: CanvasText; }
a { color: var(--accent); text-underline-offset: .2em; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: Canvas; padding: .5rem; z-index: 1; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }

/* The header: the product on the left, who is signed in on the right. */
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; padding: .625rem 1.25rem; border-bottom: 1px solid var(--line); background: var(--subtle); }
header.top .brand { color: CanvasText; font-weight: 600; text-decoration: none; }
header.top form { display: flex; gap: .75rem; align-items: center; margin: 0; min-width: 0; }
header.top .hint { overflow-wrap: anywhere; }

/* The main navigation: grouped links, the organization switcher above them, the current page marked. */
.shell { max-width: 80rem; margin: 0 auto; padding: 0 1.25rem; }
nav.site summary { cursor: pointer; margin-top: .75rem; padding: .45rem .75rem; border: 1px solid var(--line); border-radius: var(--radius); font-weight: 600; }
nav.site .where { font-weight: 400; color: var(--muted); }
nav.site .groups { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; padding: 1rem 0 .5rem; border-bottom: 1px solid var(--line); }
nav.site .switcher { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: .375rem .5rem; align-items: center; margin: 0; }
nav.site .switcher label { width: 100%; }
nav.site .switcher select { flex: 1; min-width: 0; }
.group-label { display: block; padding: 0 .5rem .25rem; color: var(--muted); font-size: .8rem; font-weight: 600; }
nav.site ul { list-style: none; margin: 0; padding: 0; }
nav.site li a { display: block; padding: .3rem .5rem; border-radius: var(--radius); color: CanvasText; text-decoration: none; }
nav.site li a:hover { background: var(--subtle); }
nav.site li a[aria-current="page"] { background: var(--subtle); font-weight: 600; box-shadow: inset 3px 0 0 var(--accent); }
main { min-width: 0; margin: 1.5rem 0 3rem; }
body > main { max-width: 48rem; margin: 2rem auto; padding: 0 1.25rem; }
/* Wide screens: the navigation is a sidebar, always unfolded (no summary to fold it). */
@media (min-width: 52rem) {
  .shell { display: grid; grid-template-columns: 14rem minmax(0, 1fr); gap: 2.5rem; }
  nav.site summary { display: none; }
  nav.site details::details-content { content-visibility: visible; }
  nav.site .groups { grid-template-columns: minmax(0, 1fr); gap: 1.25rem; padding-top: 1.5rem; border-bottom: 0; }
  main { margin-top: 1.5rem; }
}

/* Headings, text, notices. */
h1 { font-size: 1.5rem; font-weight: 600; margin: 0 0 1rem; padding-bottom: .5rem; border-bottom: 1px solid var(--line); }
h2 { font-size: 1.125rem; font-weight: 600; margin: 2rem 0 .75rem; }
h3 { font-size: 1rem; font-weight: 600; margin: 1.5rem 0 .5rem; }
p, ul, ol { margin: 0 0 1rem; }
.hint { color: var(--muted); font-size: .875rem; }
.error, .notice { border: 1px solid; border-radius: var(--radius); padding: .625rem .875rem; margin: 0 0 1rem; }
.error { border-color: var(--danger); background: color-mix(in srgb, var(--danger) 8%, Canvas); }
.notice { border-color: var(--accent); background: color-mix(in srgb, var(--accent) 8%, Canvas); }

/* Forms and buttons. */
label { font-weight: 600; }
input[type=text], input[type=search], input[type=email], input[type=url], input[type=password], input[type=number], select, textarea {
  padding: .375rem .625rem; font: inherit; color: inherit; background: Canvas; border: 1px solid var(--line); border-radius: var(--radius); max-width: 100%;
}
fieldset { border: 1px solid var(--line); border-radius: var(--radius); padding: .5rem .875rem .75rem; margin: 0 0 1rem; min-inline-size: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
.inline { display: inline-flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin: 0; max-width: 100%; }
.stack > * + * { margin-top: .5rem; }
/* A checkbox and its label: one line, never parted. */
.check { display: inline-flex; gap: .375rem; align-items: center; white-space: nowrap; }
p.check { display: flex; } .check input { margin: 0; }
/* A choice whose label is a sentence (or a name of any length): it wraps under narrow screens' width. */
.check.wrap { white-space: normal; align-items: baseline; }
/* Narrow screens: every field's label above it, the field the width of the form, the button below. */
@media (max-width: 39.99rem) {
  form.inline:has(> label) { display: flex; width: 100%; }
  label:has(+ :is(input:not([type=checkbox], [type=radio], [type=hidden]), select, textarea)) { display: block; flex: 0 0 100%; margin-bottom: -.25rem; }
  label + :is(input:not([type=checkbox], [type=radio], [type=hidden]), select, textarea) { width: 100%; flex: 1 1 100%; min-width: 0; }
}
button, .button { font: inherit; font-weight: 500; padding: .375rem .875rem; border-radius: var(--radius); border: 1px solid CanvasText; background: CanvasText; color: Canvas; cursor: pointer; text-decoration: none; display: inline-block; white-space: nowrap; }
button.secondary, .button.secondary { background: Canvas; color: CanvasText; border-color: var(--line); }
button.secondary:hover, .button.secondary:hover { background: var(--subtle); }
button:disabled { opacity: .55; cursor: not-allowed; }
button.danger { background: Canvas; color: var(--danger); border-color: var(--line); }
button.danger:hover:enabled { background: var(--danger); color: Canvas; border-color: var(--danger); }

/* Tables: a bordered box, a tinted head row. */
table { width: 100%; border: 1px solid var(--line); border-radius: var(--radius); border-collapse: separate; border-spacing: 0; margin: .5rem 0 1rem; }
/*
 * Narrow screens: a table still too wide scrolls sideways within its box when it holds something to
 * tab to (the keyboard scrolls it there); one of text only wraps anywhere instead, as a box that
 * scrolls would need a keyboard stop of its own.
 */
@media (max-width: 51.99rem) {
  table:has(a, button, input, select) { display: block; overflow-x: auto; }
  table:not(:has(a, button, input, select)) :is(th, td) { overflow-wrap: anywhere; }
  th, td { padding: .5rem; }
  td.inline { min-width: 12rem; }
}
${STACKED_LISTS}
th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
/* A cell of several small forms: it stays a cell, its forms side by side. */
td.inline { display: table-cell; }
td.inline > * { margin: 0 .5rem .375rem 0; vertical-align: middle; }
tr:last-child > td, tr:last-child > th { border-bottom: 0; }
caption { text-align: left; color: var(--muted); font-size: .875rem; padding-bottom: .375rem; }
thead th { background: var(--subtle); font-size: .875rem; font-weight: 600; }
thead tr:first-child > th:first-child { border-top-left-radius: var(--radius); } thead tr:first-child > th:last-child { border-top-right-radius: var(--radius); }
thead tr:last-child > th { border-bottom: 1px solid var(--line); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .875em; word-break: break-all; }
.tags { display: flex; gap: .35rem; flex-wrap: wrap; list-style: none; padding: 0; margin: 0; }
.tags li { border: 1px solid var(--line); border-radius: 999px; padding: 0 .6rem; font-size: .875rem; }
iframe.preview { width: 100%; height: 24rem; border: 1px solid var(--line); border-radius: var(--radius); background: #fff; }
/* Wrapped rather than scrolled: a scrolling block would need a keyboard stop of its own. */
pre { background: var(--subtle); border: 1px solid var(--line); padding: .75rem; border-radius: var(--radius); white-space: pre-wrap; overflow-wrap: anywhere; }
td > pre { margin: 0; }
.pager { display: flex; gap: 1rem; }
.chart svg { display: block; width: 100%; max-width: 30rem; height: auto; }
.chart .bar { fill: var(--accent); } .chart .axis { stroke: var(--line); }
.chart text { fill: CanvasText; font-size: 11px; text-anchor: middle; }
.chart details { margin: .5rem 0 1rem; } .chart summary { cursor: pointer; }
/* Line charts (usage): lines told apart by colour, point shape and dash; releases as numbered dotted rules. */
.line-chart > svg { max-width: 38rem; } .line-chart text { font-size: 10px; }
.chart .grid { stroke: var(--line); stroke-dasharray: 2 3; }
.chart .value-label { text-anchor: end; }
.chart .stroke { fill: none; stroke: var(--series); stroke-width: 1.75; stroke-linejoin: round; }
.chart .points > * { fill: var(--series); }
.line-1 { --series: light-dark(#0969da, #4493f8); } .line-2 { --series: light-dark(#bc4c00, #f0883e); } .line-3 { --series: light-dark(#1a7f37, #3fb950); }
.line-4 { --series: light-dark(#8250df, #ab7df8); } .line-5 { --series: light-dark(#bf3989, #db61a2); } .line-6 { --series: light-dark(#59636e, #9198a1); }
.line-4 .stroke, .line-5 .stroke, .line-6 .stroke { stroke-dasharray: 6 3; }
.chart .mark { stroke: CanvasText; stroke-width: 1; stroke-dasharray: 2 2; }
.chart .mark-label { font-weight: 600; }
.chart .legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: .5rem 0 0; font-size: .875rem; }
.chart .legend svg { display: inline-block; width: 1.5rem; height: .625rem; margin-right: .375rem; vertical-align: middle; }
@media (forced-colors: active) { .chart .bar { fill: CanvasText; } .chart .stroke { stroke: CanvasText; } .chart .points > * { fill: CanvasText; } }

/* Links that show the same page another way (a window, an environment, a component's tabs): the one shown marked. */
.choices ul { display: flex; flex-wrap: wrap; gap: .375rem; list-style: none; padding: 0; margin: 0 0 1rem; }
.choices a { display: inline-block; padding: .25rem .75rem; border: 1px solid var(--line); border-radius: var(--radius); color: CanvasText; text-decoration: none; }
.choices a:hover { background: var(--subtle); }
.choices a[aria-current="page"] { background: var(--subtle); border-color: var(--accent); font-weight: 600; box-shadow: inset 0 -2px 0 var(--accent); }
`;
