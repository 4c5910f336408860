import type { Invitation } from '../../entities/invitation.js';
import type { DomainDeps } from '../../ports/deps.js';
import {
  acceptRefusal,
  emailKey,
  hashInvitationToken,
  isInvitationToken,
} from '../../rules/invitations.js';

/**
 * The invitation a presented token opens for `email`, if it could be accepted by that
 * address now: the token is the capability (an email that merely has an invitation proves
 * nothing), and the invitation must be pending (not accepted, revoked or expired) and for
 * this email (case and surrounding spaces aside). Null otherwise, without saying why: the
 * caller (the auth server's throttles) only needs to know whether the attempt is invited.
 */
export async function pendingInvitationFor(
  input: { token: string; email: string },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<Invitation | null> {
  if (!isInvitationToken(input.token)) return null;
  const invitation = await deps.repos.invitations.findByTokenHash(hashInvitationToken(input.token));
  if (invitation === null) return null;
  return acceptRefusal(invitation, emailKey(input.email), deps.clock.now()) === null ? invitation : null;
}
