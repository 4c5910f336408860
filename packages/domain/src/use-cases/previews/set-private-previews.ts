import type { Organization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { requirePermission } from '../access/require-permission.js';

/**
 * Turns private previews on or off. Delivery learns of it through the change
 * feed (a database trigger announces the organization), so cached previews stop
 * being served at once.
 */
export async function setPrivatePreviews(
  input: { actor: Actor; organizationId: string; enabled: boolean },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Organization> {
  await requirePermission(input.actor, input.organizationId, Permission.ManageSetup, 'change who may read previews', deps);
  const organization = await deps.repos.organizations.setPrivatePreviews(
    input.organizationId,
    input.enabled,
    { now: deps.clock.now(), audit: auditNote(input.actor, deps) },
  );
  if (!organization) throw notFound('Organization', input.organizationId);
  return organization;
}
