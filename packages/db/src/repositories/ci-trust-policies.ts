import { AuditKind, ciPolicyAuditDetails, isUuid, type CiTrustPolicies } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { deleteGrant } from '../oidc/grant-deletion.js';
import { recordAudit } from './audit-record.js';
import { attachGrant } from './credential-grant.js';
import { scopeColumn, toCiTrustPolicy } from './credential-rows.js';
import { lockOrganization } from './organization-lock.js';

export function createCiTrustPolicies(prisma: PrismaClient): CiTrustPolicies {
  return {
    async create(policy, limit, audit) {
      return prisma.$transaction(async (tx) => {
        // The organization's row lock queues parallel creations: each sees the names and the count the previous one left.
        await lockOrganization(tx, policy.organizationId);
        const taken = await tx.ciTrustPolicy.findFirst({
          where: { organizationId: policy.organizationId, name: policy.name },
          select: { id: true },
        });
        if (taken) return 'name-taken' as const;
        const held = await tx.ciTrustPolicy.count({
          where: { organizationId: policy.organizationId },
        });
        if (held >= limit) return 'limit-reached' as const;
        const created = toCiTrustPolicy(
          await tx.ciTrustPolicy.create({
            data: {
              ...policy,
              refPatterns: [...policy.refPatterns],
              scope: scopeColumn(policy.scope),
            },
          }),
        );
        await recordAudit(tx, {
          note: audit,
          organizationId: policy.organizationId,
          kind: AuditKind.CiPolicyCreated,
          details: ciPolicyAuditDetails(policy),
          createdAt: policy.createdAt,
        });
        return created;
      });
    },

    async listForOrganization(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.ciTrustPolicy.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return rows.map(toCiTrustPolicy);
    },

    async remove({ organizationId, policyId, now, audit }) {
      if (!isUuid(organizationId) || !isUuid(policyId)) return null;
      return prisma.$transaction(async (tx) => {
        // The DELETE waits for an exchange attaching a grant, and then deletes the grant it attached.
        const [row] = await tx.ciTrustPolicy.findMany({
          where: { id: policyId, organizationId },
          take: 1,
        });
        const [deleted] = await tx.$queryRaw<{ grant_id: string | null }[]>`
          DELETE FROM ci_trust_policies WHERE id = ${policyId}::uuid AND organization_id = ${organizationId}::uuid
          RETURNING grant_id`;
        // Of parallel removals, the one whose DELETE found the row records it.
        if (!row || !deleted) return null;
        if (deleted.grant_id !== null) await deleteGrant(tx, deleted.grant_id);
        const policy = { ...toCiTrustPolicy(row), grantId: deleted.grant_id };
        await recordAudit(tx, {
          note: audit,
          organizationId,
          kind: AuditKind.CiPolicyDeleted,
          details: ciPolicyAuditDetails(policy),
          createdAt: now,
        });
        return policy;
      });
    },

    async findCandidates(provider, ownerId) {
      const rows = await prisma.ciTrustPolicy.findMany({
        where: { provider, ownerId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return rows.map(toCiTrustPolicy);
    },

    async attachGrant({ policyId, grantId, expected }) {
      if (!isUuid(policyId)) return null;
      return attachGrant(prisma, { table: 'ci_trust_policies', id: policyId, grantId, expected });
    },

    async claimTokenId({ issuer, jti, expiresAt, now }) {
      // One round trip: the claim, and a purge of this issuer's expired records beside it. Of two claims of one
      // jti, the second waits on the key and inserts nothing (an expired jti is never claimed: its token is refused first).
      const inserted = await prisma.$executeRaw`
        WITH purged AS (DELETE FROM ci_token_uses WHERE issuer = ${issuer} AND expires_at < ${now})
        INSERT INTO ci_token_uses (issuer, jti, expires_at) VALUES (${issuer}, ${jti}, ${expiresAt})
        ON CONFLICT DO NOTHING`;
      return inserted === 1;
    },
  };
}
