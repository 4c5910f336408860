import { AuditKind, apiTokenAuditDetails, isUuid, type ApiTokens } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { deleteGrant } from '../oidc/grant-deletion.js';
import { recordAudit } from './audit-record.js';
import { scopeColumn, toApiToken } from './credential-rows.js';
import { attachGrant } from './credential-grant.js';
import { lockOrganization } from './organization-lock.js';

export function createApiTokens(prisma: PrismaClient): ApiTokens {
  return {
    async create(token, limit, audit) {
      return prisma.$transaction(async (tx) => {
        // The organization's row lock queues parallel creations, so each counts the tokens the previous one added.
        await lockOrganization(tx, token.organizationId);
        const held = await tx.apiToken.count({
          where: {
            organizationId: token.organizationId,
            createdBy: token.createdBy,
            revokedAt: null,
            expiresAt: { gt: token.createdAt },
          },
        });
        if (held >= limit) return 'limit-reached' as const;
        const created = toApiToken(
          await tx.apiToken.create({ data: { ...token, scope: scopeColumn(token.scope) } }),
        );
        await recordAudit(tx, {
          note: audit,
          organizationId: token.organizationId,
          kind: AuditKind.ApiTokenCreated,
          details: apiTokenAuditDetails(token),
          createdAt: token.createdAt,
        });
        return created;
      });
    },

    async listForOrganization(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.apiToken.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return rows.map(toApiToken);
    },

    async revoke({ organizationId, tokenId, now, audit }) {
      if (!isUuid(organizationId) || !isUuid(tokenId)) return null;
      return prisma.$transaction(async (tx) => {
        // Only the revocation that changes the row records it; a repeated one finds nothing to update.
        // RETURNING gives the grant an exchange attached meanwhile (it waited for that row).
        const [revoked] = await tx.$queryRaw<{ grant_id: string | null }[]>`
          UPDATE api_tokens SET revoked_at = ${now}
          WHERE id = ${tokenId}::uuid AND organization_id = ${organizationId}::uuid AND revoked_at IS NULL
          RETURNING grant_id`;
        const row = await tx.apiToken.findFirst({ where: { id: tokenId, organizationId } });
        if (row && revoked) {
          if (revoked.grant_id !== null) await deleteGrant(tx, revoked.grant_id);
          await recordAudit(tx, {
            note: audit,
            organizationId,
            kind: AuditKind.ApiTokenRevoked,
            details: apiTokenAuditDetails(toApiToken(row)),
            createdAt: now,
          });
        }
        return row && toApiToken(row);
      });
    },

    async findBySecretHash(secretHash) {
      const row = await prisma.apiToken.findUnique({ where: { secretHash } });
      return row && toApiToken(row);
    },

    async touch(tokenId, now) {
      if (!isUuid(tokenId)) return;
      // One statement: Prisma's updateMany would wrap it in a transaction of its own (three round trips per exchange).
      await prisma.$executeRaw`
        UPDATE api_tokens SET last_used_at = ${now}
        WHERE id = ${tokenId}::uuid AND (last_used_at IS NULL OR last_used_at < ${now})`;
    },

    async attachGrant({ tokenId, grantId, expected }) {
      if (!isUuid(tokenId)) return null;
      // A revoked token takes no new grant: an exchange that read it before the revocation loses here.
      return attachGrant(prisma, {
        table: 'api_tokens',
        id: tokenId,
        grantId,
        expected,
        live: 'revoked_at IS NULL',
      });
    },
  };
}
