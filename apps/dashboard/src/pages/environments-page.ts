import { Permission, type Environment, type Role } from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { roleGate } from './role-note.js';

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
<form method="post" action="${base}/${env.id}/protection" class="inline">${csrfInput(csrf)}<input type="hidden" name="protected" value="${env.protected ? 'false' : 'true'}"><button type="submit" class="secondary"${off} aria-label="${env.protected ? `Open to every member (${env.name})` : `Protect ${env.name}`}">${env.protected ? 'Open to every member' : 'Protect'}</button></form>`;
  return layout({
    title: 'Environments',
    chrome,
    body: html`<h1>Environments</h1>
${noticeBox(options.notice)}
${gate.note}
<p>Hosts fetch a component's release with <code>/consume?id=…&amp;env=&lt;name&gt;</code>. Names are lower-case slugs (<code>prod</code>, <code>eu-canary</code>).</p>
<table><thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Who publishes</th><th scope="col">Rename</th><th scope="col"><span class="hint">Remove</span></th></tr></thead><tbody>
${environments.map((env) => html`<tr><th scope="row">${env.name}</th><td>${when(env.createdAt)}</td><td class="inline">${publishers(env)}</td>
<td><form method="post" action="${base}/${env.id}/rename" class="inline">${csrfInput(csrf)}<label for="rename-${env.id}" class="hint">New name for ${env.name}</label><input type="text" id="rename-${env.id}" name="name" value="${env.name}" size="16"${off}><button type="submit" class="secondary"${off}>Rename</button></form></td>
<td><form method="post" action="${base}/${env.id}/remove">${csrfInput(csrf)}<button type="submit" class="danger"${off} aria-label="Remove ${env.name}">Remove</button></form></td></tr>`)}
</tbody></table>
<p class="hint">Only owners and admins publish (or roll back) to a protected environment, and only they protect or open one. Only an environment nothing was ever released to can be removed.</p>
<h2>Add an environment</h2>
<form method="post" action="${base}" class="inline">${csrfInput(csrf)}<label for="new-env">Name</label><input type="text" id="new-env" name="name" required size="16"${off}>
<input type="checkbox" id="new-env-protected" name="protected" value="true"${off}><label for="new-env-protected">Protected</label><button type="submit"${off}>Add</button></form>`,
  });
}
