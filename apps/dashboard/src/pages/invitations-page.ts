import {
  invitationState,
  type Invitation,
  type InvitationState,
} from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { reasonNote } from './parts/disabled-reason.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';
import type { OrganizationPageContent } from './parts/organization-page.js';
import { secretOnce } from './parts/secret-once.js';

/** What the page says about the email of an invitation just created. */
export type MailOutcome = 'sent' | 'failed' | 'off';

export interface InvitationsPageContent extends OrganizationPageContent {
  /** Whether the visitor's role may invite (rules/roles.ts ManageMembers); otherwise the form is disabled. */
  readonly canInvite: boolean;
  readonly invitations: readonly Invitation[];
  readonly now: Date;
  /** Just created: its link, shown on this answer only (never in a URL, never stored). */
  readonly created?: {
    readonly email: string;
    readonly role: string;
    readonly link: string;
    readonly mail: MailOutcome;
  };
}

const MAIL_NOTE: { readonly [M in MailOutcome]: string } = {
  sent: 'It was also sent by email.',
  failed:
    'The email could not be sent: copy the link and send it yourself. The invitation is saved.',
  off: 'No email is sent from this dashboard: copy the link and send it yourself.',
};

const STATE: { readonly [S in InvitationState]: string } = {
  pending: 'pending',
  expired: 'expired',
  revoked: 'revoked',
  accepted: 'accepted',
};

function createdBox(created: NonNullable<InvitationsPageContent['created']>): SafeHtml {
  return secretOnce({
    message: html`Invitation for <strong>${created.email}</strong> as ${created.role} created. Copy the link now: it is shown only once. ${MAIL_NOTE[created.mail]}`,
    label: 'Invitation link',
    secret: created.link,
    as: 'text',
    testId: 'invitation-link',
  });
}

/** Members and viewers see the form disabled; the form as a whole is described by the reason. */
function inviteForm(base: string, content: InvitationsPageContent): SafeHtml {
  const disabled = content.canInvite ? '' : html` disabled`;
  const reasonId = 'invite-reason';
  return html`<h2>Invite</h2>
${content.canInvite ? '' : reasonNote(`Your role is ${content.organization.role}: only owners and admins can invite people.`, reasonId)}
<form method="post" action="${base}" class="inline" aria-label="Invite"${content.canInvite ? '' : html` aria-describedby="${reasonId}"`}>${csrfInput(content.chrome.csrf)}<label for="invite-email">Email</label><input type="email" id="invite-email" name="email" required maxlength="254" size="28" autocomplete="off"${disabled}>
<label for="invite-role">Role</label><select id="invite-role" name="role"${disabled}><option value="viewer">viewer</option><option value="member" selected>member</option><option value="admin">admin</option></select>
<button type="submit"${disabled}>Invite</button>
</form>
<p class="hint">The link works once, for that email only. Owners are not invited: invite an admin, then transfer ownership.</p>`;
}

function listSection(base: string, content: InvitationsPageContent): SafeHtml {
  if (!content.canInvite) return html``;
  const rows = content.invitations.map((invitation) => {
    const state = invitationState(invitation, content.now);
    const revoke = actionForm({
      action: `${base}/${invitation.id}/revoke`,
      csrf: content.chrome.csrf,
      label: 'Revoke',
      name: `Revoke the invitation for ${invitation.email}`,
      style: 'danger',
    });
    return html`<tr><th scope="row">${invitation.email}</th><td>${invitation.role}</td><td>${when(invitation.createdAt)}</td>
<td>${state === 'pending' ? html`until ${when(invitation.expiresAt)}` : STATE[state]}</td><td>${state === 'pending' ? revoke : ''}</td></tr>`;
  });
  return html`<h2>Invitations</h2>
${listTable({ columns: ['Email', 'Role', 'Invited', 'State', html`<span class="skip">Actions</span>`], rows, empty: emptyState('No invitations yet.') })}`;
}

/** An organization's invitations: the form (disabled with the reason for members and viewers), the link shown once, the list with revoke. */
export function invitationsPage(content: InvitationsPageContent): string {
  const base = `/orgs/${content.organization.id}/invitations`;
  return layout({
    title: 'Invitations',
    chrome: content.chrome,
    body: html`<p><a href="/orgs/${content.organization.id}/members">← Members</a></p>
      <h1>Invitations to ${content.organization.name}</h1>
      ${noticeBox(content.notice)}
      ${content.created === undefined ? '' : createdBox(content.created)}
      ${inviteForm(base, content)} ${listSection(base, content)}`,
  });
}
