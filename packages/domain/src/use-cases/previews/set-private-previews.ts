import type { Organization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';

/**
 * Turns private previews on or off. Delivery learns of it through the change
 * feed (a database trigger announces the organization), so cached previews stop
 * being served at once.
 */
export async function setPrivatePreviews(
  input: { actor: Actor; organizationId: string; enabled: boolean },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Organization> {
  const access = { permission: Permission.ManageSetup, what: 'change who may read previews' };
  const organization = await auditedChange(input, access, deps, (stamp) =>
    deps.repos.organizations.setPrivatePreviews(input.organizationId, input.enabled, stamp),
  );
  if (!organization) throw notFound('Organization', input.organizationId);
  return organization;
}
