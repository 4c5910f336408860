import type { AuditEvent, Role } from '@cp/domain';
import { apiTokensContract, auditedContentContract, auditedSetupContract, ciTrustPoliciesContract } from '@cp/domain/testing';
import { createOidcStorage } from '../src/oidc/index.js';
import { aMembership } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('audited writes', (db) => {
  const subject = () => ({
    repos: db().repos,
    grants: createOidcStorage(db().prisma),
    addMember: async (userId: string, organizationId: string, role: Role) => {
      await aMembership(db(), { userId, organizationId, role });
    },
    auditEvents: async (organizationId: string): Promise<AuditEvent[]> => {
      const rows = await db().prisma.auditEvent.findMany({
        where: { organizationId },
        orderBy: { seq: 'asc' },
      });
      return rows.map((row) => ({
        id: row.id,
        organizationId: row.organizationId,
        actorId: row.actorId,
        via: row.via as AuditEvent['via'],
        kind: row.kind as AuditEvent['kind'],
        componentId: row.componentId,
        subjectUserId: row.subjectUserId,
        details: row.details as AuditEvent['details'],
        createdAt: row.createdAt,
      }));
    },
  });
  describe('uploads, tags, flows', () => auditedContentContract(subject));
  describe('environments, preview access, applications', () => auditedSetupContract(subject));
  describe('API tokens', () => apiTokensContract(subject));
  describe('CI trust policies', () => ciTrustPoliciesContract(subject));
});
