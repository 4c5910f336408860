import { Permission, type Flow, type Role } from '@cp/domain';
import { csrfInput, html } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { roleGate } from './role-note.js';

/** An organization's flows, and the form that creates one (disabled, saying why, for roles that cannot). */
export function flowsPage(options: { organizationId: string; flows: readonly Flow[]; role: Role | undefined; chrome: Chrome }): string {
  const { organizationId, flows, chrome } = options;
  const gate = roleGate(options.role, Permission.ManageSetup, 'create or change flows', 'flow-role-note');
  return layout({
    title: 'Flows',
    chrome,
    body: html`<h1>Flows</h1>
<p>A flow is an ordered list of components served by the deprecated <code>/flow</code> endpoint; new hosts use <code>/consume</code> per component.</p>
${flows.length === 0 ? html`<p>No flow yet.</p>` : html`<table><thead><tr><th scope="col">Flow</th><th scope="col">Status</th><th scope="col">Components</th><th scope="col">Updated</th></tr></thead>
<tbody>${flows.map((f) => html`<tr><th scope="row"><a href="/flows/${f.id}">${f.name}</a></th><td>${f.status}</td><td>${f.componentIds.length}</td><td>${when(f.updatedAt)}</td></tr>`)}</tbody></table>`}
<h2>Create a flow</h2>
${gate.note}
<form method="post" action="/orgs/${organizationId}/flows" class="inline">${csrfInput(chrome.csrf)}<label for="flow-name">Name</label><input type="text" id="flow-name" name="name" required${gate.disabled}><button type="submit"${gate.disabled}>Create</button></form>`,
  });
}
