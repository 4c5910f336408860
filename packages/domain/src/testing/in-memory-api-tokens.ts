import { AuditKind } from '../entities/audit-event.js';
import type { ApiToken } from '../entities/credential.js';
import type { ApiTokens } from '../ports/api-tokens.js';
import { apiTokenAuditDetails } from '../rules/credential-audit.js';
import { auditEventFor } from './in-memory-audit.js';
import type { InMemoryState } from './in-memory-state.js';

const withoutHash = ({ secretHash: _hash, ...token }: ApiToken & { secretHash: string }): ApiToken => token;

/** API tokens in the state's array; each method runs without an await in between, so it is as atomic as the port asks. */
export function inMemoryApiTokens(state: InMemoryState): ApiTokens {
  const indexOf = (tokenId: string) => state.apiTokens.findIndex((t) => t.id === tokenId);
  return {
    async create(token, limit, audit) {
      const held = state.apiTokens.filter(
        (t) =>
          t.organizationId === token.organizationId &&
          t.createdBy === token.createdBy &&
          t.revokedAt === null &&
          t.expiresAt > token.createdAt,
      ).length;
      if (held >= limit) return 'limit-reached';
      const stored = { ...token, scope: structuredClone(token.scope), lastUsedAt: null, revokedAt: null, grantId: null };
      state.apiTokens.push(stored);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId: token.organizationId,
          kind: AuditKind.ApiTokenCreated,
          now: token.createdAt,
          details: apiTokenAuditDetails(token),
        }),
      );
      return withoutHash(stored);
    },
    listForOrganization: async (organizationId) =>
      state.apiTokens
        .filter((t) => t.organizationId === organizationId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
        .map(withoutHash),
    async revoke({ organizationId, tokenId, now, audit }) {
      const index = indexOf(tokenId);
      const token = state.apiTokens[index];
      if (token?.organizationId !== organizationId) return null;
      if (token.revokedAt !== null) return withoutHash(token);
      if (token.grantId !== null) state.dropOidcGrant(token.grantId);
      const revoked = { ...token, revokedAt: now, grantId: null };
      state.apiTokens[index] = revoked;
      state.recordAudit(
        auditEventFor(audit, {
          organizationId,
          kind: AuditKind.ApiTokenRevoked,
          now,
          details: apiTokenAuditDetails(token),
        }),
      );
      return withoutHash(revoked);
    },
    async findBySecretHash(secretHash) {
      const token = state.apiTokens.find((t) => t.secretHash === secretHash);
      return token === undefined ? null : withoutHash(token);
    },
    async touch(tokenId, now) {
      const index = indexOf(tokenId);
      const token = state.apiTokens[index];
      if (token === undefined || (token.lastUsedAt !== null && token.lastUsedAt >= now)) return;
      state.apiTokens[index] = { ...token, lastUsedAt: now };
    },
    async attachGrant({ tokenId, grantId, expected }) {
      const index = indexOf(tokenId);
      const token = state.apiTokens[index];
      if (token === undefined) return null;
      if (token.grantId !== expected) return token.grantId;
      state.apiTokens[index] = { ...token, grantId };
      return grantId;
    },
  };
}
