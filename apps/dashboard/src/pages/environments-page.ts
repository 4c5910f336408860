import { Permission, type Environment, type Role } from '@cp/domain';
import { html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { listTable } from './parts/list-table.js';
import { roleGate } from './parts/role-gate.js';

/**
 * An organization's environments: who publishes to each (protect or open it), rename, remove, add.
 * For roles that do not manage the setup, every form is disabled and says why.
 */
export function environmentsPage(options: { organizationId: string; environments: readonly Environment[]; role: Role | undefined; chrome: Chrome; notice: string | null }): string {
  const { chrome, environments } = options;
  const gate = roleGate(options.role, Permission.ManageSetup, 'add, rename, remove, protect or open environments', 'setup-note');
  const off = gate.disabled;
  const base = `/orgs/${options.organizationId}/environments`;
  const csrf = chrome.csrf;
  /** Who publishes there, and (for owners and admins) the button that changes it. */
  const publishers = (env: Environment): SafeHtml => html`${env.protected ? 'Protected: owners and admins' : 'Every member'}
${actionForm({
  action: `${base}/${env.id}/protection`,
  csrf,
  label: env.protected ? 'Open to every member' : 'Protect',
  name: env.protected ? `Open to every member (${env.name})` : `Protect ${env.name}`,
  style: 'secondary',
  fields: { protected: env.protected ? 'false' : 'true' },
  disabled: off,
  inline: true,
})}`;
  const rename = (env: Environment): SafeHtml =>
    actionForm({
      action: `${base}/${env.id}/rename`,
      csrf,
      label: 'Rename',
      style: 'secondary',
      controls: html`<label for="rename-${env.id}" class="hint">New name for ${env.name}</label><input type="text" id="rename-${env.id}" name="name" value="${env.name}" size="16"${off}>`,
      disabled: off,
      inline: true,
    });
  const remove = (env: Environment): SafeHtml =>
    actionForm({ action: `${base}/${env.id}/remove`, csrf, label: 'Remove', name: `Remove ${env.name}`, style: 'danger', disabled: off });
  return layout({
    title: 'Environments',
    chrome,
    body: html`<h1>Environments</h1>
${noticeBox(options.notice)}
${gate.note}
<p>Hosts fetch a component's release with <code>/consume?id=…&amp;env=&lt;name&gt;</code>. Names are lower-case slugs (<code>prod</code>, <code>eu-canary</code>).</p>
${listTable({
  columns: ['Name', 'Created', 'Who publishes', 'Rename', html`<span class="hint">Remove</span>`],
  rows: environments.map((env) => html`<tr><th scope="row">${env.name}</th><td>${when(env.createdAt)}</td><td class="inline">${publishers(env)}</td>
<td>${rename(env)}</td>
<td>${remove(env)}</td></tr>`),
})}
<p class="hint">Only owners and admins publish (or roll back) to a protected environment, and only they protect or open one. Only an environment nothing was ever released to can be removed.</p>
<h2>Add an environment</h2>
${actionForm({
  action: base,
  csrf,
  label: 'Add',
  controls: html`<label for="new-env">Name</label><input type="text" id="new-env" name="name" required size="16"${off}>
<span class="check"><input type="checkbox" id="new-env-protected" name="protected" value="true"${off}><label for="new-env-protected">Protected</label></span>`,
  disabled: off,
  inline: true,
})}`,
  });
}
