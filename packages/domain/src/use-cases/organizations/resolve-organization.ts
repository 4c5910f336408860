import type { MemberOrganization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { visibleOrganizations } from '../access/credential-scope.js';

/**
 * Finds one of the actor's organizations from what a user typed in
 * service.config.json: an id, or a name (case-insensitive). Without a value,
 * the user's default organization (through a credential: its organization, the only one it sees).
 */
export async function resolveOrganization(
  actor: Actor,
  reference: string | undefined,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<MemberOrganization> {
  const organizations = visibleOrganizations(actor, await deps.repos.organizations.listForUser(actor.userId));
  const wanted = reference?.trim();
  if (!wanted) {
    const fallback = actor.credential === undefined ? organizations.find((org) => org.isDefault) : organizations[0];
    if (!fallback) throw notFound('Default organization of user', actor.userId);
    return fallback;
  }
  const byId = organizations.find((org) => org.id === wanted);
  if (byId) return byId;
  const byName = organizations.filter((org) => org.name.toLowerCase() === wanted.toLowerCase());
  if (byName.length > 1) {
    throw new DomainError(
      ErrorCode.AmbiguousOrganization,
      `You belong to ${byName.length} organizations named "${wanted}". Use the organization id instead (see list_organizations).`,
      { organizationIds: byName.map((org) => org.id) },
    );
  }
  if (!byName[0]) throw notFound('Organization', wanted);
  return byName[0];
}
