import { can, canAssignRole, Permission, Role, type Member } from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { rolesTable } from './roles-table.js';

interface MembersPageOptions {
  readonly organizationId: string;
  readonly organizationName: string;
  readonly members: readonly Member[];
  /** The visitor's own membership. */
  readonly me: { userId: string; role: Role };
  readonly chrome: Chrome;
  readonly notice: string | null;
}

/**
 * Why the visitor cannot change this member, or null when they can (the rules of
 * rules/membership-changes.ts, shown ahead; the server checks them again under lock).
 */
function refusal(me: MembersPageOptions['me'], member: Member): string | null {
  if (member.userId === me.userId) return 'Your own role: transfer ownership or leave instead.';
  if (!can(me.role, Permission.ManageMembers)) return `Your role is ${me.role}: only owners and admins change roles or remove members.`;
  if (!canAssignRole(me.role, member.role)) return `Your role is ${me.role}: only owners change or remove an owner.`;
  return null;
}

/** An organization's members: who, role, since when; change a role, remove, transfer ownership, leave. */
export function membersPage(options: MembersPageOptions): string {
  const { chrome, me, members } = options;
  const base = `/orgs/${options.organizationId}`;
  const csrf = chrome.csrf;
  const owners = members.filter((m) => m.role === Role.Owner).length;
  const assignable = Object.values(Role).filter((role) => canAssignRole(me.role, role));
  const row = (member: Member): SafeHtml => {
    const reason = refusal(me, member);
    const noteId = `why-${member.userId}`;
    const off = reason === null ? '' : html` disabled aria-describedby="${noteId}"`;
    const who = member.displayName === null ? member.email : `${member.displayName} (${member.email})`;
    const roleForm = html`<form method="post" action="${base}/members/${member.userId}/role" class="inline">${csrfInput(csrf)}<input type="hidden" name="from" value="${member.role}"><select id="role-${member.userId}" name="role" aria-label="Role of ${member.email}"${off}>${(reason === null ? assignable : [member.role]).map((role) => html`<option value="${role}"${role === member.role ? html` selected` : ''}>${role}</option>`)}</select><button type="submit" class="secondary" aria-label="Change role of ${member.email}"${off}>Change role</button></form>`;
    const removeForm = html`<form method="post" action="${base}/members/${member.userId}/remove" class="inline">${csrfInput(csrf)}<button type="submit" class="danger" aria-label="Remove ${member.email}"${off}>Remove</button></form>`;
    const transfer = can(me.role, Permission.Own) && member.userId !== me.userId
      ? html`<form method="post" action="${base}/members/${member.userId}/transfer" class="inline">${csrfInput(csrf)}<button type="submit" class="secondary" aria-label="Transfer ownership to ${member.email}">Transfer ownership</button></form>`
      : '';
    return html`<tr><th scope="row">${who}</th><td>${member.role}</td><td>${when(member.joinedAt)}</td><td class="inline">${roleForm}${removeForm}${transfer}${reason === null ? '' : html`<span class="hint" id="${noteId}">${reason}</span>`}</td></tr>`;
  };
  const lastOwner = me.role === Role.Owner && owners === 1;
  return layout({
    title: 'Members',
    chrome,
    body: html`<h1>Members</h1>
${noticeBox(options.notice)}
<p>Everyone in ${options.organizationName}. Your role: <strong>${me.role}</strong>.${can(me.role, Permission.ManageMembers) ? html` <a class="button" href="${base}/invitations">Invite people</a>` : ''}</p>
<table><thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col">Change</th></tr></thead><tbody>
${members.map(row)}
</tbody></table>
<p class="hint">Owners and admins change roles below owner and remove members; only owners make or unmake owners and transfer ownership (the previous owner becomes an admin). The last owner can neither leave nor be demoted.</p>
<h2>Roles</h2>
${rolesTable()}
<h2>Leave</h2>
<form method="post" action="${base}/leave" class="inline">${csrfInput(csrf)}<button type="submit" class="danger" aria-label="Leave this organization (${options.organizationName})"${lastOwner ? html` disabled aria-describedby="why-leave"` : ''}>Leave this organization</button>${lastOwner ? html`<span class="hint" id="why-leave">You are the last owner: transfer ownership first, or delete the organization (Settings).</span>` : ''}</form>`,
  });
}
