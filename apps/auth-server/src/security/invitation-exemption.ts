import { pendingInvitationFor, type DomainDeps } from '@cp/domain';
import type { Throttles } from './throttle.js';

/** What a sign-up or sign-in form presents: the invitation token (its hidden field, '' when none) and the email typed. */
export interface PresentedInvitation {
  readonly token: string;
  readonly email: string;
}

export interface ExemptionDeps {
  readonly domain: Pick<DomainDeps, 'repos' | 'clock'>;
  readonly throttles: Throttles;
}

/** A sign-up's claim on its invitation's exemption; given back when the sign-up created nothing. */
export interface SignUpExemption {
  giveBack(): Promise<void>;
}

/**
 * Whether a sign-up is spared the per-network budget: it presents the token of a pending
 * invitation for the email it signs up with (domain `pendingInvitationFor`), and takes that
 * invitation's exemption, atomically (`signupPerInvitation`). So one invitation spares one
 * sign-up, also under parallel requests: the others pay the network budget as plain sign-ups.
 * Null when the attempt is not exempt (no token, forged, expired, revoked, used, another
 * email, or the exemption already taken).
 */
export async function claimSignUpExemption(presented: PresentedInvitation, deps: ExemptionDeps): Promise<SignUpExemption | null> {
  if (presented.token === '') return null;
  const invitation = await pendingInvitationFor(presented, deps.domain);
  if (invitation === null) return null;
  const taken = await deps.throttles.signupPerInvitation.hit(invitation.id);
  if (taken.retryAfterSeconds > 0) return null;
  return { giveBack: () => deps.throttles.signupPerInvitation.refund(invitation.id) };
}

/**
 * Whether a sign-in is spared the per-network budget: it presents the token of a pending
 * invitation for the email it signs in as. Not counted per invitation: the token names one
 * email, and the per-account budgets (per (account, network) and the account ceiling) still
 * count every attempt, so replaying it buys no more guesses against that account than anyone
 * gets, and no guesses at all against any other.
 */
export async function isInvitedSignIn(presented: PresentedInvitation, deps: Pick<ExemptionDeps, 'domain'>): Promise<boolean> {
  if (presented.token === '') return false;
  return (await pendingInvitationFor(presented, deps.domain)) !== null;
}
