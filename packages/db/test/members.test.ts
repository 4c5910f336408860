import type { AuditEvent } from '@cp/domain';
import { membersContract } from '@cp/domain/testing';
import { aMembership } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('members', (db) => {
  membersContract(() => ({
    repos: db().repos,
    addMember: async (userId, organizationId, role) => {
      await aMembership(db(), { userId, organizationId, role });
      // The contract's clock: joined at its `now`.
      await db().prisma.membership.update({
        where: { userId_organizationId: { userId, organizationId } },
        data: { joinedAt: new Date('2026-05-06T07:08:09.000Z') },
      });
    },
    setDefault: async (userId, organizationId) => {
      await db().prisma.user.update({
        where: { id: userId },
        data: { defaultOrganizationId: organizationId },
      });
    },
    auditEvents: async (organizationId) => {
      const rows = await db().prisma.auditEvent.findMany({
        where: { organizationId },
        orderBy: { seq: 'asc' },
      });
      return rows.map(({ seq: _seq, ...row }) => row as unknown as AuditEvent);
    },
  }));
});
