import { releaseRequestsContract } from '@cp/domain/testing';
import { aComponent, aMembership, aVariant } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('release requests', (db) => {
  releaseRequestsContract(() => ({
    repos: db().repos,
    addMember: async (userId, organizationId, role) => {
      await aMembership(db(), { userId, organizationId, role });
    },
    aComponent: async (organizationId, createdBy) => {
      const component = await aComponent(db().repos, { organizationId, createdBy });
      const first = (await db().repos.variants.findLatest(component.id))!;
      const second = await aVariant(db().repos, { componentId: component.id, createdBy });
      return { id: component.id, variants: [first.id, second.id] };
    },
    auditOf: async (componentId) =>
      (
        await db().prisma.auditEvent.findMany({ where: { componentId, kind: { startsWith: 'release.' } }, orderBy: { seq: 'asc' } })
      ).map(({ kind, actorId, details }) => ({ kind: kind as never, actorId, details: details as never })),
  }));
});
