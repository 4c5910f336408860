import { can, Permission, Role } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { listTable } from './parts/list-table.js';

/** Each permission as a person reads it; exhaustive, so a new permission does not compile until it is worded. */
const LABELS: { readonly [P in Permission]: string } = {
  [Permission.Read]: 'read components, variants, history, environments, flows and members',
  [Permission.Write]: 'upload components and variants, edit tags',
  [Permission.Publish]: 'publish and roll back to open environments (to protected ones: a release request)',
  [Permission.PublishProtected]: 'publish to protected environments, approve or decline release requests',
  [Permission.ManageSetup]: 'manage environments, flows, preview access and webhooks',
  [Permission.ManageMembers]: 'invite people, change or remove viewers, members and admins, read the audit trail',
  [Permission.Own]: 'rename or delete the organization, make owners, transfer ownership',
};

/** What each role may do, drawn from the one permission table (rules/roles.ts), lowest role first. */
export function rolesTable(): SafeHtml {
  const roles = Object.values(Role).reverse();
  return listTable({
    columns: ['May', ...roles],
    rows: Object.values(Permission).map((permission) => html`<tr><th scope="row">${LABELS[permission]}</th>${roles.map((role) => html`<td>${can(role, permission) ? 'yes' : 'no'}</td>`)}</tr>`),
  });
}
