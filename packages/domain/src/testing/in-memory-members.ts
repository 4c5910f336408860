import { Role, type Membership } from '../entities/organization.js';
import type { Members, PersonalOrganizationFor } from '../ports/members.js';
import { checkMembershipChange, membershipAudit } from '../rules/membership-changes.js';
import { addOrganization } from './in-memory-accounts.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

/**
 * `userId` no longer belongs to `organizationId`'s default: their first other organization by
 * name becomes it, or a new personal one. The twin of the repositories' moveDefault.
 */
export function moveDefault(
  state: InMemoryState,
  userId: string,
  organizationId: string,
  personalOrganizationFor: PersonalOrganizationFor,
  now: Date,
): void {
  const index = state.users.findIndex(
    (u) => u.id === userId && u.defaultOrganizationId === organizationId,
  );
  const user = state.users[index];
  if (!user) return;
  const other = state.memberships
    .filter((m) => m.userId === userId && m.organizationId !== organizationId)
    .map((m) => byKey(state.organizations, m.organizationId)!)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))[0];
  const next = other ?? addOrganization(state, personalOrganizationFor(user), userId, now);
  state.users[index] = { ...user, defaultOrganizationId: next.id };
}

export function inMemoryMembers(state: InMemoryState): Members {
  return {
    async list(organizationId) {
      const org = byKey(state.organizations, organizationId);
      if (!org) return [];
      const rank = Object.values(Role);
      return state.memberships
        .filter((m) => m.organizationId === organizationId)
        .flatMap((m) => {
          const user = byKey(state.users, m.userId);
          if (!user) return [];
          const { userId, role } = m;
          return {
            userId,
            organizationId,
            role,
            email: user.email,
            displayName: user.displayName,
            joinedAt: m.joinedAt ?? org.createdAt,
          };
        })
        .sort(
          (a, b) =>
            rank.indexOf(a.role) - rank.indexOf(b.role) ||
            a.email.localeCompare(b.email) ||
            a.userId.localeCompare(b.userId),
        );
    },

    // No await before the last write: as atomic as the port demands.
    async change({ organizationId, actorId, change, personalOrganizationFor, audit, now }) {
      const find = (userId: string): Membership | null =>
        state.memberships.find((m) => m.organizationId === organizationId && m.userId === userId) ??
        null;
      const actor = find(actorId);
      const subject = change.kind === 'leave' ? actor : find(change.userId);
      const owners = state.memberships.filter(
        (m) => m.organizationId === organizationId && m.role === Role.Owner,
      ).length;
      const result = checkMembershipChange(change, { organizationId, actor, subject, owners });
      const setRole = (userId: string, role: Role) => {
        const index = state.memberships.findIndex(
          (m) => m.organizationId === organizationId && m.userId === userId,
        );
        state.memberships[index] = { ...state.memberships[index]!, role };
      };
      if (result.after === null) {
        state.memberships = state.memberships.filter(
          (m) => !(m.organizationId === organizationId && m.userId === result.userId),
        );
        moveDefault(state, result.userId, organizationId, personalOrganizationFor, now);
      } else {
        setRole(result.userId, result.after);
        if (change.kind === 'transfer') setRole(actorId, Role.Admin);
      }
      state.recordAudit(membershipAudit(change, result, { organizationId, audit, now }));
      return result;
    },
  };
}
