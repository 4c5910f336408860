import { Permission, type FlowPage, type Role } from '@cp/domain';
import { html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { emptyState } from './parts/empty-state.js';
import { roleGate } from './parts/role-gate.js';

/**
 * One flow: its status with publish / unpublish, its components in order with move and remove, and adding one.
 * Every role reads it; for roles that cannot change flows the controls are disabled and say why.
 */
export function flowPage(options: { view: FlowPage; role: Role | undefined; chrome: Chrome; notice: string | null; deliveryUrl: string }): string {
  const { view: { flow, components, addable }, chrome } = options;
  const csrf = chrome.csrf;
  const gate = roleGate(options.role, Permission.ManageSetup, 'change flows', 'flow-role-note');
  const off = gate.disabled;
  const componentsAction = `/flows/${flow.id}/components`;
  const action = (op: string, componentId: string, label: string, name: string, style: 'secondary' | 'danger' = 'secondary'): SafeHtml =>
    actionForm({ action: componentsAction, csrf, label, name, style, fields: { op, component: componentId }, disabled: off, inline: true });
  const published = flow.status === 'published';
  return layout({
    title: `Flow ${flow.name}`,
    chrome,
    body: html`<h1>Flow ${flow.name}</h1>
${noticeBox(options.notice)}
${gate.note}
<p>Status: <strong>${flow.status}</strong>. ${published ? html`Served at <code>${options.deliveryUrl}/flow?id=${flow.id}&amp;resolve=components</code>.` : 'Drafts are not served.'}</p>
${actionForm({ action: `/flows/${flow.id}/status`, csrf, label: published ? 'Unpublish' : 'Publish', fields: { status: published ? 'draft' : 'published' }, disabled: off })}
<h2>Components, in order</h2>
${components.length === 0 ? emptyState('No component in this flow yet.') : html`<ol>${components.map(({ id, name: known }, index) => {
  const name = known ?? id;
  return html`<li><a href="/component/${id}">${name}</a> ${index > 0 ? action('up', id, 'Move up', `Move ${name} up`) : ''} ${index < components.length - 1 ? action('down', id, 'Move down', `Move ${name} down`) : ''} ${action('remove', id, 'Remove', `Remove ${name} from the flow`, 'danger')}</li>`;
})}</ol>`}
${addable.length === 0 ? '' : actionForm({
  action: componentsAction,
  csrf,
  label: 'Add',
  fields: { op: 'add' },
  controls: html`<label for="add-component">Add a component</label><select id="add-component" name="component"${off}>${addable.map((c) => html`<option value="${c.id}">${c.name}</option>`)}</select>`,
  disabled: off,
  inline: true,
})}`,
  });
}
