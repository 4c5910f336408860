import { auditTrailContract } from '@cp/domain/testing';
import { recordAudit } from '../src/repositories/audit-record.js';
import { aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('audit trail', (db) => {
  auditTrailContract(
    () => ({
      trail: db().repos.auditTrail,
      anOrganization: async () => (await aUserWithOrganization(db().repos)).organization.id,
      record: async (...events) => {
        await db().prisma.$transaction(async (tx) => recordAudit(tx, ...events));
      },
      rewrite: (eventId) =>
        db().prisma.auditEvent.update({
          where: { id: eventId },
          data: { details: { after: 'owner' } },
        }),
    }),
    { database: true },
  );
});
