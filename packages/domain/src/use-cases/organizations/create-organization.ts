import type { Organization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { newOrganization } from './new-organization.js';
import { auditNote } from '../access/audit-note.js';
import { refuseThroughCredential } from '../access/credential-scope.js';

/** A new organization owned by the actor, with `staging` and protected `prod`, as at sign-up (recorded in its audit trail). */
export async function createOrganization(
  { actor, name }: { actor: Actor; name: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Organization> {
  refuseThroughCredential(actor, 'create organizations');
  return deps.repos.organizations.create({
    organization: newOrganization(name, deps),
    ownerId: actor.userId,
    now: deps.clock.now(),
    audit: auditNote(actor, deps),
  });
}
