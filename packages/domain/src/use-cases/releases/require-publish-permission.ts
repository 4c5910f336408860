import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { canPublishTo, MANAGER_ROLES } from '../../rules/roles.js';
import { requireMembership } from '../access/require-membership.js';

/** How many owners and admins the refusal names; more are summed up as "and others". */
const MANAGERS_NAMED = 5;

/**
 * Throws ENVIRONMENT_PROTECTED unless the actor's role lets them publish to `environment`
 * (rules/roles.ts). The message names who can: the organization's owners and admins, people
 * the actor already shares the organization with, and the open environments to use instead.
 */
export async function requirePublishPermission(
  actor: Actor,
  environment: Environment,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<void> {
  if (!environment.protected) return; // open to every member: no role to read
  const organizationId = environment.organizationId;
  const membership = await requireMembership(actor, organizationId, deps);
  if (canPublishTo(membership.role, environment)) return;
  const [organization, managers, environments] = await Promise.all([
    deps.repos.organizations.findById(organizationId),
    deps.repos.organizations.listMembers(organizationId, {
      roles: MANAGER_ROLES,
      limit: MANAGERS_NAMED + 1,
    }),
    deps.repos.environments.listForOrganization(organizationId),
  ]);
  const named = managers.slice(0, MANAGERS_NAMED).map((m) => m.userId);
  const users = await deps.repos.users.findByIds(named);
  const emails = named.flatMap((id) => users.find((user) => user.id === id)?.email ?? []);
  const who =
    emails.length === 0
      ? ''
      : ` (${emails.join(', ')}${managers.length > MANAGERS_NAMED ? ' and others' : ''})`;
  const open = environments.filter((env) => !env.protected).map((env) => env.name);
  const instead =
    open.length === 0
      ? 'Ask one of them to publish it.'
      : `Ask one of them, or publish to ${open.join(' or ')}.`;
  throw new DomainError(
    ErrorCode.EnvironmentProtected,
    `${environment.name} is protected: only owners and admins of ${organization?.name ?? 'the organization'}${who} can publish to it. ${instead}`,
    { environment: environment.name, roles: [...MANAGER_ROLES] },
  );
}
