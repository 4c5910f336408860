import type { Invitation, Organization } from '@cp/domain';
import { errorBox, html } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';

/** The accept page: what the link offers, and one button (a POST with the CSRF token). */
export function joinPage(options: {
  token: string;
  invitation: Invitation;
  organization: Organization;
  chrome: Chrome;
}): string {
  const { invitation, organization } = options;
  return layout({
    title: `Join ${organization.name}`,
    chrome: options.chrome,
    body: html`<h1>Join ${organization.name} as ${invitation.role}</h1>
      <p>
        This invitation is for <strong>${invitation.email}</strong>. It works once, until
        ${when(invitation.expiresAt)}.
      </p>
      ${actionForm({ action: `/invitations/${options.token}`, csrf: options.chrome.csrf, label: 'Join' })}`,
  });
}

/** Signed in as someone else: the link lets only the invited account in. Signing out is the way forward. */
export function wrongAccountPage(options: { invitedEmail: string; chrome: Chrome }): string {
  return layout({
    title: 'This invitation is for another account',
    chrome: options.chrome,
    body: html`<h1>This invitation is for another account</h1>
      ${errorBox(`This invitation is for ${options.invitedEmail}, and you are signed in as ${options.chrome.email}. Sign out, then open the link again and sign in (or create an account) as ${options.invitedEmail}.`)}
      ${actionForm({ action: '/logout', csrf: options.chrome.csrf, label: 'Sign out' })}`,
  });
}
