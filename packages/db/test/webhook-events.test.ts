import { randomUUID } from 'node:crypto';
import { createJobSender } from '../src/jobs/job-sender.js';
import { writeRelease } from '../src/repositories/release-write.js';
import { aComponent, anAuditNote, aUserWithOrganization, aVariant } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

// Webhook events are enqueued by the writes themselves, inside their transactions: a committed change
// has its messages and delivery jobs, a failed one has neither; an organization without a subscribed
// endpoint gets nothing queued.
describeEachBackend('webhook events in the change transaction', (db) => {
  const counts = async (organizationId: string) => {
    const [row] = await db().prisma.$queryRaw<{ messages: number; jobs: number }[]>`
      SELECT (SELECT count(*)::int FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id WHERE e.organization_id = ${organizationId}::uuid) AS messages,
             (SELECT count(*)::int FROM jobs.job j JOIN webhook_messages m ON m.id = j.data->>'messageId'
                JOIN webhook_endpoints e ON e.id = m.endpoint_id WHERE e.organization_id = ${organizationId}::uuid) AS jobs`;
    return row!;
  };
  const anEndpoint = async (organizationId: string, createdBy: string, eventTypes: string[]) =>
    db().repos.webhookEndpoints.create(
      {
        id: randomUUID(),
        organizationId,
        url: 'https://hooks.example.test/',
        eventTypes: eventTypes as never,
        secret: 'whsec_dGVzdA==',
        enabled: true,
        createdBy,
        createdAt: new Date(),
      },
      10,
      anAuditNote(createdBy),
    );

  test('a release written in a transaction that then fails leaves no message and no job', async () => {
    const owner = await aUserWithOrganization(db().repos);
    await anEndpoint(owner.organization.id, owner.user.id, ['release.published']);
    const component = await aComponent(db().repos, {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    const variant = await aVariant(db().repos, {
      componentId: component.id,
      createdBy: owner.user.id,
    });
    const prod = owner.environments.find((e) => e.name === 'prod')!;
    const input = {
      eventId: randomUUID(),
      componentId: component.id,
      environmentId: prod.id,
      variantId: variant.id,
      releasedBy: owner.user.id,
      now: new Date(),
      audit: anAuditNote(owner.user.id),
    };
    const jobs = createJobSender();
    await expect(
      db().prisma.$transaction(async (tx) => {
        await writeRelease(tx, jobs, input);
        expect(
          (await tx.webhookMessage.count({ where: { eventType: 'release.published' } })) > 0,
        ).toBe(true);
        throw new Error('a later step of the change failed');
      }),
    ).rejects.toThrow('a later step of the change failed');
    expect(await counts(owner.organization.id)).toEqual({ messages: 0, jobs: 0 });
    expect(await db().repos.releases.listCurrent(component.id)).toEqual([]);

    await db().prisma.$transaction((tx) =>
      writeRelease(tx, jobs, {
        ...input,
        eventId: randomUUID(),
        audit: anAuditNote(owner.user.id),
      }),
    );
    expect(await counts(owner.organization.id)).toEqual({ messages: 1, jobs: 1 });
  });

  test('only subscribed, enabled endpoints of the organization get a message', async () => {
    const owner = await aUserWithOrganization(db().repos);
    const other = await aUserWithOrganization(db().repos);
    await anEndpoint(owner.organization.id, owner.user.id, ['variant.created']);
    const off = await anEndpoint(owner.organization.id, owner.user.id, [
      'variant.created',
      'component.created',
    ]);
    await db().repos.webhookEndpoints.update({
      organizationId: owner.organization.id,
      endpointId: (off as { id: string }).id,
      enabled: false,
      now: new Date(),
      audit: anAuditNote(owner.user.id),
    });
    await anEndpoint(other.organization.id, other.user.id, [
      'variant.created',
      'component.created',
    ]);
    await aComponent(db().repos, {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    const messages = await db().prisma.webhookMessage.findMany({
      where: { endpoint: { organizationId: owner.organization.id } },
    });
    expect(messages.map((m) => m.eventType)).toEqual(['variant.created']);
    expect(await counts(other.organization.id)).toEqual({ messages: 0, jobs: 0 });
  });

  test('parallel creations stop at the limit', async () => {
    const owner = await aUserWithOrganization(db().repos);
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        anEndpoint(owner.organization.id, owner.user.id, ['component.created']),
      ),
    );
    expect(results.filter((r) => r !== 'limit-reached')).toHaveLength(10);
    expect(
      await db().repos.webhookEndpoints.listForOrganization(owner.organization.id),
    ).toHaveLength(10);
  });
});
