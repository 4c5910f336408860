import type { MemberOrganization } from '../../entities/organization.js';
import type { Actor, User } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { visibleOrganizations } from '../access/credential-scope.js';
import { findUser } from './find-user.js';

export interface SignedInUser {
  readonly user: User;
  /** Their organizations, ordered by name then id (the switcher of every page). */
  readonly organizations: MemberOrganization[];
}

/**
 * The person a session names, with their organizations, in one round trip; null when the user no
 * longer exists (the session is then as good as none).
 */
export async function findSignedInUser({ actor }: { actor: Actor }, deps: Pick<DomainDeps, 'repos'>): Promise<SignedInUser | null> {
  const [user, organizations] = await Promise.all([
    findUser({ userId: actor.userId }, deps),
    deps.repos.organizations.listForUser(actor.userId),
  ]);
  return user === null ? null : { user, organizations: visibleOrganizations(actor, organizations) };
}
