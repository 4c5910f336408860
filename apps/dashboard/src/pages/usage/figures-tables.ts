import type { UsageErrorGroup, UsageFigures, UsageSlice } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { when } from '../layout.js';
import { emptyState } from '../parts/empty-state.js';
import { listTable } from '../parts/list-table.js';
import { count, environmentName, ms, rate } from './format.js';

const FIGURE_COLUMNS = ['Served', 'Loads', 'Renders', 'Errors', 'Error rate', 'Render time p50 / p75 / p99'] as const;

/** A slice's figures as cells, in FIGURE_COLUMNS' order. */
const figureCells = (f: UsageFigures): SafeHtml =>
  html`<td>${count(f.served)}</td><td>${count(f.loads)}</td><td>${count(f.renders)}</td><td>${count(f.errors)}</td><td>${rate(f.errorRate)}</td><td>${ms(f.render.p50)} / ${ms(f.render.p75)} / ${ms(f.render.p99)}</td>`;

/** Each environment's figures, and all of them together when there are several. */
export function environmentsTable(slices: readonly UsageSlice[], total: UsageFigures): SafeHtml {
  const rows = slices.map((s) => html`<tr><th scope="row">${environmentName(s.environment)}</th>${figureCells(s)}</tr>`);
  return listTable({
    columns: ['Environment', ...FIGURE_COLUMNS],
    rows: slices.length > 1 ? [...rows, html`<tr><th scope="row">All environments</th>${figureCells(total)}</tr>`] : rows,
  });
}

/** Each variant's figures in each environment it was used in. */
export function variantsTable(slices: readonly UsageSlice[], label: (variantId: string) => string): SafeHtml {
  return listTable({
    columns: ['Variant', 'Environment', ...FIGURE_COLUMNS],
    rows: slices.map((s) => html`<tr><th scope="row">${s.variantLabel ?? label(s.variantId ?? '')}</th><td>${environmentName(s.environment)}</td>${figureCells(s)}</tr>`),
  });
}

/** The most counted errors by stack hash; class and message as the host page reported them (escaped, as all text). */
export function topErrorsTable(errors: readonly UsageErrorGroup[], label: (variantId: string) => string, span: string): SafeHtml {
  return listTable({
    columns: ['Error', 'Message', 'Variant', 'Count', 'First seen', 'Last seen'],
    caption: 'Most counted first; the stack hash under each class groups the same error.',
    rows: errors.map(
      (e) =>
        html`<tr><th scope="row"><code>${e.errorClass}</code> <span class="hint mono">${e.stackHash}</span></th><td>${e.message}</td><td>${label(e.variantId)} in ${environmentName(e.environment)}</td><td>${count(e.count)}</td><td>${when(e.firstSeen)}</td><td>${when(e.lastSeen)}</td></tr>`,
    ),
    empty: emptyState(`No error reported in ${span}.`, true),
  });
}
