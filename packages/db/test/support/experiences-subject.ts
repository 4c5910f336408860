import type { ExperiencesSubject } from '@cp/domain/testing';
import type { TestDatabase } from '../../src/testing/index.js';
import { aComponent, aMembership, aVariant } from '../../src/testing/index.js';

/** The experiences, rollouts and apps contracts' subject over one test database. */
export const experiencesSubjectOf = (db: () => TestDatabase) => (): ExperiencesSubject => ({
  repos: db().repos,
  addMember: async (userId, organizationId, role) => {
    await aMembership(db(), { userId, organizationId, role });
  },
  aComponent: async (organizationId, createdBy) => {
    const component = await aComponent(db().repos, { organizationId, createdBy });
    const first = (await db().repos.variants.findLatest(component.id))!;
    const second = await aVariant(db().repos, { componentId: component.id, createdBy });
    const third = await aVariant(db().repos, { componentId: component.id, createdBy });
    return { id: component.id, variants: [first.id, second.id, third.id] };
  },
  auditOf: async (componentId) =>
    (
      await db().prisma.auditEvent.findMany({
        where: { componentId, OR: ['experience.', 'rollout.', 'release.', 'app.'].map((prefix) => ({ kind: { startsWith: prefix } })) },
        orderBy: { seq: 'asc' },
      })
    ).map(({ kind, actorId, details }) => ({ kind: kind as never, actorId, details: details as never })),
  webhookEventsOf: async (organizationId) =>
    (
      await db().prisma.webhookMessage.findMany({
        where: { endpoint: { organizationId } },
        orderBy: [{ createdAt: 'asc' }],
      })
    ).map((message) => {
      const body = JSON.parse(message.body) as { type: string; data: Record<string, unknown> };
      return { type: body.type, data: body.data };
    }),
});
