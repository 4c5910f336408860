import { auditTrailContract } from '@cp/domain/testing';
import { aUserWithOrganization, recordAuditEvents } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('audit trail', (db) => {
  auditTrailContract(
    () => ({
      trail: db().repos.auditTrail,
      anOrganization: async () => (await aUserWithOrganization(db().repos)).organization.id,
      record: (...events) => recordAuditEvents(db(), ...events),
      rewrite: (eventId) =>
        db().prisma.auditEvent.update({
          where: { id: eventId },
          data: { details: { after: 'owner' } },
        }),
    }),
    { database: true },
  );
});
