import { can, canAssignRole, Permission, Role, type Member } from '@cp/domain';
import { html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { disabledWithReason } from './parts/disabled-reason.js';
import { listTable } from './parts/list-table.js';
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
    const gate = disabledWithReason(refusal(me, member), `why-${member.userId}`, 'span');
    const off = gate.disabled;
    const who = member.displayName === null ? member.email : `${member.displayName} (${member.email})`;
    const action = `${base}/members/${member.userId}`;
    const roleForm = actionForm({
      action: `${action}/role`,
      csrf,
      label: 'Change role',
      name: `Change role of ${member.email}`,
      style: 'secondary',
      fields: { from: member.role },
      controls: html`<select id="role-${member.userId}" name="role" aria-label="Role of ${member.email}"${off}>${(gate.allowed ? assignable : [member.role]).map((role) => html`<option value="${role}"${role === member.role ? html` selected` : ''}>${role}</option>`)}</select>`,
      disabled: off,
      disabledLast: true,
      inline: true,
    });
    const removeForm = actionForm({ action: `${action}/remove`, csrf, label: 'Remove', name: `Remove ${member.email}`, style: 'danger', disabled: off, disabledLast: true, inline: true });
    const transfer = can(me.role, Permission.Own) && member.userId !== me.userId
      ? actionForm({ action: `${action}/transfer`, csrf, label: 'Transfer ownership', name: `Transfer ownership to ${member.email}`, style: 'secondary', inline: true })
      : '';
    return html`<tr><th scope="row">${who}</th><td>${member.role}</td><td>${when(member.joinedAt)}</td><td class="inline">${roleForm}${removeForm}${transfer}${gate.note}</td></tr>`;
  };
  const leave = disabledWithReason(
    me.role === Role.Owner && owners === 1 ? 'You are the last owner: transfer ownership first, or delete the organization (Settings).' : null,
    'why-leave',
    'span',
  );
  return layout({
    title: 'Members',
    chrome,
    body: html`<h1>Members</h1>
${noticeBox(options.notice)}
<p>Everyone in ${options.organizationName}. Your role: <strong>${me.role}</strong>.${can(me.role, Permission.ManageMembers) ? html` <a class="button" href="${base}/invitations">Invite people</a>` : ''}</p>
${listTable({ columns: ['Member', 'Role', 'Joined', 'Change'], rows: members.map(row) })}
<p class="hint">Owners and admins change roles below owner and remove members; only owners make or unmake owners and transfer ownership (the previous owner becomes an admin). The last owner can neither leave nor be demoted.</p>
<h2>Roles</h2>
${rolesTable()}
<h2>Leave</h2>
${actionForm({ action: `${base}/leave`, csrf, label: 'Leave this organization', name: `Leave this organization (${options.organizationName})`, style: 'danger', disabled: leave.disabled, disabledLast: true, note: leave.note, inline: true })}`,
  });
}
