import { AuditKind } from '../entities/audit-event.js';
import type { PreviewKey } from '../entities/preview-key.js';
import type { PreviewKeys } from '../ports/preview-keys.js';
import { auditEventFor } from './in-memory-audit.js';
import type { InMemoryState } from './in-memory-state.js';

const withoutHash = ({
  secretHash: _hash,
  ...key
}: PreviewKey & { secretHash: string }): PreviewKey => key;

export function inMemoryPreviewKeys(state: InMemoryState): PreviewKeys {
  return {
    async create(key, limit, audit) {
      // No await between the count and the push: as atomic as the port demands.
      const active = state.previewKeys.filter(
        (k) => k.organizationId === key.organizationId && k.revokedAt === null,
      ).length;
      if (active >= limit) return 'limit-reached';
      const stored = { ...key, revokedAt: null };
      state.previewKeys.push(stored);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId: key.organizationId,
          kind: AuditKind.PreviewKeyCreated,
          now: key.createdAt,
          details: { keyId: key.id, name: key.name, prefix: key.prefix },
        }),
      );
      return withoutHash(stored);
    },
    listForOrganization: async (organizationId) =>
      state.previewKeys
        .filter((k) => k.organizationId === organizationId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
        .map(withoutHash),
    async revoke({ organizationId, keyId, now, audit }) {
      const index = state.previewKeys.findIndex(
        (k) => k.id === keyId && k.organizationId === organizationId,
      );
      if (index === -1) return null;
      const key = state.previewKeys[index]!;
      if (key.revokedAt !== null) return withoutHash(key);
      const revoked = { ...key, revokedAt: now };
      state.previewKeys[index] = revoked;
      state.recordAudit(
        auditEventFor(audit, {
          organizationId,
          kind: AuditKind.PreviewKeyRevoked,
          now,
          details: { keyId, name: key.name, prefix: key.prefix },
        }),
      );
      return withoutHash(revoked);
    },
    isActive: async (organizationId, secretHash) =>
      state.previewKeys.some(
        (k) =>
          k.organizationId === organizationId &&
          k.secretHash === secretHash &&
          k.revokedAt === null,
      ),
  };
}
