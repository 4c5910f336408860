import {
  AUDIT_KINDS,
  type AuditEntry,
  type AuditEventsView,
  type MemberOrganization,
} from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { actorName, auditSummary, kindLabel } from './audit-summary.js';
import { viaLabel } from './audit-via.js';
import { type Chrome, layout, when } from './layout.js';
import { pager, type PagerLinks } from './pager.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';

export interface AuditPageContent {
  readonly organization: MemberOrganization;
  readonly view: AuditEventsView;
  readonly chrome: Chrome;
  readonly links: PagerLinks;
}

const option = (value: string, label: string, selected: boolean): SafeHtml =>
  html`<option value="${value}" ${selected ? 'selected' : ''}>${label}</option>`;

/** The only form of the page: a GET that narrows the list (nothing on this page changes anything). */
function filterForm(base: string, view: AuditEventsView): SafeHtml {
  const { filters, choices } = view;
  const kind = filters.kinds.length === 1 ? filters.kinds[0] : undefined;
  const filtered =
    filters.componentId !== null || filters.actorId !== null || filters.kinds.length > 0;
  return html`<form
    method="get"
    action="${base}"
    class="inline"
    role="search"
    aria-label="Filter the audit trail"
  >
    <label for="audit-component">Component</label>
    <select id="audit-component" name="component">
      ${option('', 'Any component', filters.componentId === null)}${choices.components.map((c) => option(c.id, c.name, c.id === filters.componentId))}
    </select>
    <label for="audit-person">Person</label>
    <select id="audit-person" name="person">
      ${option('', 'Anyone', filters.actorId === null)}${choices.people.map((p) => option(p.id, p.email, p.id === filters.actorId))}
    </select>
    <label for="audit-kind">Change</label>
    <select id="audit-kind" name="kind">
      ${option('', 'Any change', kind === undefined)}${AUDIT_KINDS.map((k) => option(k, kindLabel(k), k === kind))}
    </select>
    <button type="submit">Filter</button
    >${filtered ? html` <a href="${base}">Clear filters</a>` : ''}
  </form>`;
}

function row(entry: AuditEntry): SafeHtml {
  const { event } = entry;
  const component =
    event.componentId === null
      ? html``
      : html`<a href="/component/${event.componentId}"
          >${entry.componentName ?? 'a removed component'}</a
        >`;
  const via = viaLabel(event.via);
  return html`<tr data-testid="audit-event" data-kind="${event.kind}">
    <td>${when(event.createdAt)}</td>
    <td>${actorName(entry)}${via === null ? '' : html` <span class="hint" data-testid="audit-via">${via}</span>`}</td>
    <td>${kindLabel(event.kind)}</td>
    <td>${component}</td>
    <td>${auditSummary(entry)}</td>
  </tr>`;
}

/** The organization's audit trail: newest first, read-only, filtered by component, person and kind. */
export function auditPage(content: AuditPageContent): string {
  const { organization, view, links } = content;
  const base = `/orgs/${organization.id}/audit`;
  const filtered =
    view.filters.componentId !== null ||
    view.filters.actorId !== null ||
    view.filters.kinds.length > 0;
  const empty = !view.isLatest
    ? 'No change here: see the latest ones.'
    : filtered
      ? 'No change matches these filters.'
      : 'No change recorded yet.';
  return layout({
    title: `Audit trail · ${organization.name}`,
    chrome: content.chrome,
    body: html`<h1>Audit trail</h1>
      <p class="hint">
        Every change in ${organization.name}, newest first: who made it, when, and what it changed.
        Records are never edited or removed.
      </p>
      ${filterForm(base, view)}
      ${listTable({
        columns: ['When', 'Who', 'Change', 'Component', 'Details'],
        rows: view.items.map(row),
        empty: emptyState(empty, true),
      })}
      ${pager('Audit trail', 'changes', links)}`,
  });
}
