import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { requireMembership } from '../access/require-membership.js';
import { requirePermission } from '../access/require-permission.js';

export async function listEnvironments(
  { actor, organizationId }: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Environment[]> {
  await requireMembership(actor, organizationId, deps);
  return deps.repos.environments.listForOrganization(organizationId);
}

/** Adding an environment changes where releases can go: owners and admins only. Open to every member unless `protected`. */
export async function createEnvironment(
  {
    actor,
    organizationId,
    name,
    protected: isProtected = false,
  }: { actor: Actor; organizationId: string; name: string; protected?: boolean },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Environment> {
  const environmentName = normalizeEnvironmentName(name);
  await requirePermission(actor, organizationId, Permission.ManageSetup, 'add environments', deps);
  return deps.repos.environments.create({
    id: deps.ids.newId(),
    organizationId,
    name: environmentName,
    protected: isProtected,
    now: deps.clock.now(),
    audit: auditNote(actor, deps),
  });
}
