import { AuditKind } from '../entities/audit-event.js';
import { Role, type Organization } from '../entities/organization.js';
import type { User } from '../entities/user.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import type { NewOrganization, Organizations } from '../ports/organizations.js';
import type { Users } from '../ports/users.js';
import { auditEventFor } from './in-memory-audit.js';
import { checkOrganizationDeletion } from '../rules/membership-changes.js';
import { moveDefault } from './in-memory-members.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

export function addOrganization(state: InMemoryState, organization: NewOrganization, ownerId: string, now: Date): Organization {
  const org = { id: organization.id, name: organization.name, createdAt: now, privatePreviews: false };
  state.organizations.push(org);
  state.memberships.push({ userId: ownerId, organizationId: org.id, role: 'owner', joinedAt: now });
  for (const env of organization.environments) {
    state.environments.push({ id: env.id, organizationId: org.id, name: env.name, protected: env.protected, createdAt: now });
  }
  return org;
}

export function inMemoryUsers(state: InMemoryState): Users {
  return {
    async createWithOrganization({ user, organization, passwordHash, now, audit }) {
      if (state.users.some((u) => u.email.toLowerCase() === user.email.toLowerCase())) {
        throw new DomainError(ErrorCode.NameTaken, 'An account with this email already exists.');
      }
      const created: User = { ...user, defaultOrganizationId: organization.id, createdAt: now };
      state.users.push(created);
      addOrganization(state, organization, user.id, now);
      if (audit) state.recordAudit(auditEventFor(audit, { organizationId: organization.id, kind: AuditKind.OrganizationCreated, now, details: { name: organization.name } }));
      if (passwordHash !== undefined) state.passwordHashes.set(user.id, passwordHash);
      return created;
    },
    findById: async (id) => byKey(state.users, id),
    findByIds: async (ids) => state.users.filter((u) => ids.includes(u.id)),
    findByEmail: async (email) => state.users.find((u) => u.email.toLowerCase() === email.toLowerCase()) ?? null,
  };
}

export function inMemoryOrganizations(state: InMemoryState): Organizations {
  return {
    async create({ organization, ownerId, now, audit }) {
      const org = addOrganization(state, organization, ownerId, now);
      if (audit) state.recordAudit(auditEventFor(audit, { organizationId: org.id, kind: AuditKind.OrganizationCreated, now, details: { name: org.name } }));
      return org;
    },
    findById: async (id) => byKey(state.organizations, id),
    async listForUser(userId) {
      const user = byKey(state.users, userId);
      return state.memberships
        .filter((m) => m.userId === userId)
        .map((m) => ({ ...byKey(state.organizations, m.organizationId)!, role: m.role, isDefault: user?.defaultOrganizationId === m.organizationId }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    },
    findMembership: async (userId, organizationId) =>
      state.memberships.find((m) => m.userId === userId && m.organizationId === organizationId) ?? null,
    async listMembers(organizationId, { roles, limit }) {
      const rank = Object.values(Role);
      return state.memberships
        .filter((m) => m.organizationId === organizationId && roles.includes(m.role))
        .sort((a, b) => rank.indexOf(a.role) - rank.indexOf(b.role) || a.userId.localeCompare(b.userId))
        .slice(0, limit);
    },
    async setPrivatePreviews(organizationId, enabled, { now, audit }) {
      const index = state.organizations.findIndex((org) => org.id === organizationId);
      const current = state.organizations[index];
      if (!current) return null;
      const updated = { ...current, privatePreviews: enabled };
      state.organizations[index] = updated;
      if (current.privatePreviews !== enabled) {
        state.recordAudit(
          auditEventFor(audit, {
            organizationId,
            kind: AuditKind.PrivatePreviewsChanged,
            now,
            details: { before: current.privatePreviews, after: enabled },
          }),
        );
      }
      return updated;
    },
    async rename({ organizationId, name, audit, now }) {
      const index = state.organizations.findIndex((org) => org.id === organizationId);
      const before = state.organizations[index];
      if (!before) return null;
      state.organizations[index] = { ...before, name };
      state.recordAudit(auditEventFor(audit, { organizationId, kind: AuditKind.OrganizationRenamed, now, details: { before: before.name, after: name } }));
      return state.organizations[index];
    },
    async delete({ organizationId, actorId, confirmName, personalOrganizationFor, now }) {
      const org = byKey(state.organizations, organizationId);
      const actor = state.memberships.find((m) => m.organizationId === organizationId && m.userId === actorId) ?? null;
      checkOrganizationDeletion({ organizationId, name: org?.name ?? '', actor }, confirmName);
      for (const user of state.users.filter((u) => u.defaultOrganizationId === organizationId)) {
        moveDefault(state, user.id, organizationId, personalOrganizationFor, now);
      }
      const componentIds = new Set(state.components.filter((c) => c.organizationId === organizationId).map((c) => c.id));
      const objectKeys = [
        ...state.variants.filter((v) => componentIds.has(v.componentId)).map((v) => v.objectKey),
        ...state.uploadSessions.filter((u) => u.organizationId === organizationId && u.stagingRemovedAt === null).map((u) => u.stagingKey),
      ];
      const outside = <T extends { organizationId: string }>(rows: T[]) => rows.filter((row) => row.organizationId !== organizationId);
      state.organizations = state.organizations.filter((o) => o.id !== organizationId);
      state.memberships = outside(state.memberships);
      state.components = outside(state.components);
      state.variants = state.variants.filter((v) => !componentIds.has(v.componentId));
      state.environments = outside(state.environments);
      state.releases = state.releases.filter((r) => !componentIds.has(r.componentId));
      state.releaseEvents = state.releaseEvents.filter((r) => !componentIds.has(r.componentId));
      state.uploadSessions = outside(state.uploadSessions);
      state.flows = outside(state.flows);
      state.apps = outside(state.apps);
      state.previewKeys = outside(state.previewKeys);
      state.webhookEndpoints = outside(state.webhookEndpoints);
      state.auditEvents = outside(state.auditEvents);
      return { objectKeys };
    },
  };
}

