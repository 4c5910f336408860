import { Permission, type Flow, type Role } from '@cp/domain';
import { html } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';
import { roleGate } from './parts/role-gate.js';

/** An organization's flows, and the form that creates one (disabled, saying why, for roles that cannot). */
export function flowsPage(options: { organizationId: string; flows: readonly Flow[]; role: Role | undefined; chrome: Chrome }): string {
  const { organizationId, flows, chrome } = options;
  const gate = roleGate(options.role, Permission.ManageSetup, 'create or change flows', 'flow-role-note');
  return layout({
    title: 'Flows',
    chrome,
    body: html`<h1>Flows</h1>
<p>A flow is an ordered list of components served by the deprecated <code>/flow</code> endpoint; new hosts use <code>/consume</code> per component.</p>
${listTable({
  columns: ['Flow', 'Status', 'Components', 'Updated'],
  rows: flows.map((f) => html`<tr><th scope="row"><a href="/flows/${f.id}">${f.name}</a></th><td>${f.status}</td><td>${f.componentIds.length}</td><td>${when(f.updatedAt)}</td></tr>`),
  empty: emptyState('No flow yet.'),
})}
<h2>Create a flow</h2>
${gate.note}
${actionForm({
  action: `/orgs/${organizationId}/flows`,
  csrf: chrome.csrf,
  label: 'Create',
  controls: html`<label for="flow-name">Name</label><input type="text" id="flow-name" name="name" required${gate.disabled}>`,
  disabled: gate.disabled,
  inline: true,
})}`,
  });
}
