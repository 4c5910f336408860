import {
  invitationState,
  type Invitation,
  type InvitationState,
} from '../../entities/invitation.js';
import type { Organization } from '../../entities/organization.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { hashInvitationToken, isInvitationToken } from '../../rules/invitations.js';

export interface InvitationView {
  readonly invitation: Invitation;
  readonly organization: Organization;
  readonly state: InvitationState;
}

/** Never echoes the token: it is a secret, and a garbled one is no use to read back. */
export const invitationNotFound = (): DomainError =>
  new DomainError(
    ErrorCode.NotFound,
    'This invitation link is not valid. Check that it was copied whole, or ask an admin of the organization for a new one.',
    { resource: 'Invitation' },
  );

/**
 * The invitation a link's token opens, with its organization and state, for the accept page.
 * No actor: the token is the capability (whoever holds the link may read what it offers).
 */
export async function findInvitation(
  input: { token: string },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<InvitationView> {
  const invitation = isInvitationToken(input.token)
    ? await deps.repos.invitations.findByTokenHash(hashInvitationToken(input.token))
    : null;
  const organization =
    invitation && (await deps.repos.organizations.findById(invitation.organizationId));
  if (!invitation || !organization) throw invitationNotFound();
  return { invitation, organization, state: invitationState(invitation, deps.clock.now()) };
}
