/** Columns a `listTable` labels at most (the widest list has this many); a column without a name shows none. */
const MAX_COLUMNS = 8;
const columns = Array.from({ length: MAX_COLUMNS }, (_, index) => index + 1);

/*
 * Narrow screens: a list's row becomes a block, its row header the block's title, each other cell a
 * line named by its column, actions wrapping under the content. The names come from the table's
 * `data-label-<n>` through custom properties, as the cells carry no attribute of their own: where a
 * browser cannot read an attribute that way, the list keeps the sideways-scrolling table above.
 * The elements keep their table roles (checked with axe-core and by role in Chromium).
 */
export const STACKED_LISTS = `
@supports (width: attr(data-x type(<length>), 0px)) {
  @media (max-width: 39.99rem) {
    ${columns.map((n) => `table.list[data-label-${n}] { --label-${n}: attr(data-label-${n}); }`).join('\n    ')}
    table.list, table.list > tbody, table.list > tbody > tr, table.list > tbody > tr > :is(th, td) { display: block; overflow: visible; min-width: 0; }
    table.list > thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    table.list > caption { display: block; padding: .5rem .75rem 0; }
    table.list > tbody > tr { padding: .625rem .75rem; border-bottom: 1px solid var(--line); }
    table.list > tbody > tr:last-child { border-bottom: 0; }
    table.list > tbody > tr > :is(th, td) { padding: .125rem 0; border: 0; overflow-wrap: anywhere; }
    table.list > tbody > tr > th { font-size: 1rem; padding-bottom: .25rem; }
    table.list > tbody > tr > td::before { display: inline-block; min-width: 6.5rem; padding-right: .5rem; color: var(--muted); font: 600 .8125rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; word-break: normal; }
    ${columns.map((n) => `table.list > tbody > tr > td:nth-child(${n})::before { content: var(--label-${n}); }`).join('\n    ')}
    /* A cell whose form names its field says it already; a field in a row leaves room for its button. */
    table.list > tbody > tr > td:nth-child(n):has(label)::before { content: none; }
    table.list label + :is(input, select) { flex: 1 1 8rem; }
  }
}
`;
