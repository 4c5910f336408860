import { html, type SafeHtml } from '@cp/web-forms';

/** A column heading: its text, or markup (a visually hidden "Actions" over a column of buttons). */
export type Column = string | SafeHtml;

export interface ListTable {
  readonly columns: readonly Column[];
  /** One `<tr>` an item; where the item has a name, its first cell is a `<th scope="row">` with it. */
  readonly rows: readonly SafeHtml[];
  /** Shown instead of the table when there are no rows (an `emptyState`); without it the table always shows. */
  readonly empty?: SafeHtml;
  /** Said over the table as a hint, such as the order of the rows. */
  readonly caption?: string;
}

/**
 * The column names a narrow screen shows beside each cell, as `data-label-<n>` attributes the
 * stylesheet reads (the rows' own markup stays as the pages wrote it). A heading given as markup
 * (a hidden "Actions") labels nothing: its buttons say what they do.
 */
const labels = (columns: readonly Column[]): SafeHtml[] =>
  columns.flatMap((column, index) => (typeof column === 'string' ? [html` data-label-${String(index + 1)}="${column}"`] : []));

/**
 * A page's items as a table: headed columns, a row an item, and the empty state in its place when
 * there is none. Use it for every tabular list, so that headings and the empty case read alike; on
 * narrow screens each row is a block of its cells, each named by its column.
 */
export function listTable(table: ListTable): SafeHtml {
  if (table.rows.length === 0 && table.empty !== undefined) return table.empty;
  const caption = table.caption === undefined ? '' : html`<caption class="hint">${table.caption}</caption>`;
  return html`<table class="list"${labels(table.columns)}>${caption}<thead><tr>${table.columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody>
${table.rows}
</tbody></table>`;
}
