import type { DomainDeps } from '../../ports/deps.js';
import { Permission, rolesWith } from '../../rules/roles.js';

/** How many approvers an answer names; more are summed up as "and others". */
export const APPROVERS_NAMED = 5;

/** Who can approve a release request (and publish to protected environments) in an organization. */
export interface Approvers {
  /** Emails of the first APPROVERS_NAMED owners and admins, owners first. */
  readonly emails: readonly string[];
  /** True when there are more than those named. */
  readonly more: boolean;
}

export async function listApprovers(
  organizationId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Approvers> {
  const approvers = await deps.repos.organizations.listMembers(organizationId, {
    roles: rolesWith(Permission.PublishProtected),
    limit: APPROVERS_NAMED + 1,
  });
  const named = approvers.slice(0, APPROVERS_NAMED).map((m) => m.userId);
  const users = await deps.repos.users.findByIds(named);
  const emails = named.flatMap((id) => users.find((user) => user.id === id)?.email ?? []);
  return { emails, more: approvers.length > APPROVERS_NAMED };
}

/** "a@x.io, b@x.io and others", or "" when nobody can be named. */
export const approverList = ({ emails, more }: Approvers): string =>
  `${emails.join(', ')}${more && emails.length > 0 ? ' and others' : ''}`;
