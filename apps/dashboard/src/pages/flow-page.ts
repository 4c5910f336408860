import { Permission, type FlowPage, type Role } from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout } from './layout.js';
import { roleGate } from './role-note.js';

/**
 * One flow: its status with publish / unpublish, its components in order with move and remove, and adding one.
 * Every role reads it; for roles that cannot change flows the controls are disabled and say why.
 */
export function flowPage(options: { view: FlowPage; role: Role | undefined; chrome: Chrome; notice: string | null; deliveryUrl: string }): string {
  const { view: { flow, components, addable }, chrome } = options;
  const csrf = chrome.csrf;
  const gate = roleGate(options.role, Permission.ManageSetup, 'change flows', 'flow-role-note');
  const off = gate.disabled;
  const action = (op: string, componentId: string, label: string, aria: string, kind = 'secondary'): SafeHtml =>
    html`<form method="post" action="/flows/${flow.id}/components" class="inline">${csrfInput(csrf)}<input type="hidden" name="op" value="${op}"><input type="hidden" name="component" value="${componentId}"><button type="submit" class="${kind}"${off} aria-label="${aria}">${label}</button></form>`;
  return layout({
    title: `Flow ${flow.name}`,
    chrome,
    body: html`<h1>Flow ${flow.name}</h1>
${noticeBox(options.notice)}
${gate.note}
<p>Status: <strong>${flow.status}</strong>. ${flow.status === 'published' ? html`Served at <code>${options.deliveryUrl}/flow?id=${flow.id}&amp;resolve=components</code>.` : 'Drafts are not served.'}</p>
<form method="post" action="/flows/${flow.id}/status">${csrfInput(csrf)}<input type="hidden" name="status" value="${flow.status === 'published' ? 'draft' : 'published'}"><button type="submit"${off}>${flow.status === 'published' ? 'Unpublish' : 'Publish'}</button></form>
<h2>Components, in order</h2>
${components.length === 0 ? html`<p>No component in this flow yet.</p>` : html`<ol>${components.map(({ id, name: known }, index) => {
  const name = known ?? id;
  return html`<li><a href="/component/${id}">${name}</a> ${index > 0 ? action('up', id, 'Move up', `Move ${name} up`) : ''} ${index < components.length - 1 ? action('down', id, 'Move down', `Move ${name} down`) : ''} ${action('remove', id, 'Remove', `Remove ${name} from the flow`, 'danger')}</li>`;
})}</ol>`}
${addable.length === 0 ? '' : html`<form method="post" action="/flows/${flow.id}/components" class="inline">${csrfInput(csrf)}<input type="hidden" name="op" value="add"><label for="add-component">Add a component</label><select id="add-component" name="component"${off}>${addable.map((c) => html`<option value="${c.id}">${c.name}</option>`)}</select><button type="submit"${off}>Add</button></form>`}`,
  });
}
