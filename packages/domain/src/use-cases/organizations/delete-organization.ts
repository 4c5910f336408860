import { refuseThroughCredential } from '../access/credential-scope.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { personalOrganization } from './new-organization.js';

/** How many of the organization's stored objects were removed after the commit, and how many are left behind. */
export interface DeletedOrganization {
  readonly removedObjects: number;
  readonly failedObjects: number;
}

/**
 * Deletes an organization (owners only, who type its name to confirm) with everything in it,
 * its audit trail included. Members whose default it was get another of their organizations
 * as default, or a new personal one when they have none (the same rule as leaving).
 *
 * The rows go in one transaction; the stored files (variants, staged uploads) are removed
 * afterwards, best effort: a failed removal leaves an orphaned object, never a half-deleted
 * organization, and is counted in `failedObjects`.
 */
export async function deleteOrganization(
  {
    actor,
    organizationId,
    confirmName,
  }: { actor: Actor; organizationId: string; confirmName: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock' | 'objects'>,
): Promise<DeletedOrganization> {
  refuseThroughCredential(actor, 'delete organizations');
  const { objectKeys } = await deps.repos.organizations.delete({
    organizationId,
    actorId: actor.userId,
    confirmName,
    personalOrganizationFor: (user) => personalOrganization(user, deps),
    now: deps.clock.now(),
  });
  let failedObjects = 0;
  // One at a time: a large organization must not open hundreds of storage requests at once.
  for (const key of objectKeys) {
    await deps.objects.remove(key).catch(() => void failedObjects++);
  }
  return { removedObjects: objectKeys.length - failedObjects, failedObjects };
}
