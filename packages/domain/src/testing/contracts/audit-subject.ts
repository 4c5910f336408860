import { randomUUID } from 'node:crypto';
import type { AuditEvent, AuditNote } from '../../entities/audit-event.js';
import type { Role } from '../../entities/organization.js';
import type { OidcStorage } from '../../ports/oidc-storage.js';
import type { Repositories } from '../../ports/repositories.js';

/** What the audited-writes contracts need from an implementation. */
export interface AuditedWritesSubject {
  readonly repos: Repositories;
  /** Where connected applications' grants live (same database as the repositories). */
  readonly grants: OidcStorage;
  /** `userId` joins the organization with `role` (no port writes memberships besides sign-up). */
  readonly addMember: (userId: string, organizationId: string, role: Role) => Promise<void>;
  /** The organization's audit rows, oldest first (read straight from the store). */
  readonly auditEvents: (organizationId: string) => Promise<AuditEvent[]>;
}

export const note = (actorId: string): AuditNote => ({ eventId: randomUUID(), actorId });

/** A user with their own organization (`staging` open, `prod` protected). */
export async function anOwner(repos: Repositories) {
  const userId = randomUUID();
  const organizationId = randomUUID();
  await repos.users.createWithOrganization({
    user: { id: userId, email: `${userId}@example.test`, displayName: null },
    organization: {
      id: organizationId,
      name: `Audited ${userId.slice(0, 8)}`,
      environments: [
        { id: randomUUID(), name: 'staging', protected: false },
        { id: randomUUID(), name: 'prod', protected: true },
      ],
    },
    now: new Date('2026-05-01T00:00:00.000Z'),
  });
  return { userId, organizationId };
}

/** A pending upload session of `userId` for a new component (or for `componentId`). */
export async function aPendingUpload(
  repos: Repositories,
  owner: { userId: string; organizationId: string },
  target: { componentId?: string; componentName?: string } = {},
) {
  const id = randomUUID();
  const now = new Date();
  const session = {
    id,
    userId: owner.userId,
    organizationId: owner.organizationId,
    componentId: target.componentId ?? null,
    componentName: target.componentName ?? `Widget ${id.slice(0, 8)}`,
    stagingKey: `staging/${id}`,
    state: 'pending' as const,
    expiresAt: new Date(now.getTime() + 3_600_000),
    createdAt: now,
    result: null,
    stagingRemovedAt: null,
  };
  await repos.uploadSessions.create(session);
  return session;
}

export const aVariant = (createdBy: string) => {
  const id = randomUUID();
  return {
    id,
    objectKey: `variants/${id}/index.html`,
    size: 2048,
    sha256: 'a'.repeat(64),
    integrity: `sha384-${'b'.repeat(64)}`,
    createdBy,
  };
};
