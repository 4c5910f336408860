import type { PreviewKey } from '../entities/preview-key.js';
import type { PreviewKeys } from '../ports/preview-keys.js';
import type { InMemoryState } from './in-memory-state.js';

const withoutHash = ({
  secretHash: _hash,
  ...key
}: PreviewKey & { secretHash: string }): PreviewKey => key;

export function inMemoryPreviewKeys(state: InMemoryState): PreviewKeys {
  return {
    async create(key, limit) {
      // No await between the count and the push: as atomic as the port demands.
      const active = state.previewKeys.filter(
        (k) => k.organizationId === key.organizationId && k.revokedAt === null,
      ).length;
      if (active >= limit) return 'limit-reached';
      const stored = { ...key, revokedAt: null };
      state.previewKeys.push(stored);
      return withoutHash(stored);
    },
    listForOrganization: async (organizationId) =>
      state.previewKeys
        .filter((k) => k.organizationId === organizationId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
        .map(withoutHash),
    async revoke({ organizationId, keyId, now }) {
      const index = state.previewKeys.findIndex(
        (k) => k.id === keyId && k.organizationId === organizationId,
      );
      if (index === -1) return null;
      const key = state.previewKeys[index]!;
      const revoked = key.revokedAt === null ? { ...key, revokedAt: now } : key;
      state.previewKeys[index] = revoked;
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
