import { randomUUID } from 'node:crypto';
import { createJobBoss, createWebhookDeliveryStore, Queue } from '@cp/db';
import {
  aComponent,
  anAuditNote,
  aUserWithOrganization,
  aVariant,
  createTestDatabase,
  type Owner,
  type TestDatabase,
} from '@cp/db/testing';
import {
  createWebhookEndpoint,
  DEFAULT_GUARD_SETTINGS,
  GUARD_ACTOR_ID,
  redeliverWebhookMessage,
  type GuardWindow,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '@cp/domain';
import { outboundUrlPolicy, silentLogger, type OutboundRule } from '@cp/http-runtime';
import { buildOpenApiDocument, makeConfig } from '@cp/delivery-api';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import { createApp, webhookDeliveryJob, type QueuePolicy, type WorkerApp } from '../src/index.js';
import { startReceiver, until, type Received } from './support/receiver.js';

// Webhooks end to end on a real database (PGlite, or PostgreSQL with DATABASE_URL): the changes
// written by the repositories enqueue their events in their own transactions; the worker (pg-boss)
// delivers them to a receiver in this process, signed as Standard Webhooks says, verified with the
// `standardwebhooks` library (an independent implementation). Retry delays are compressed through
// the job's `policy`; the production schedule is WEBHOOK_DELIVERY_POLICY.
const FAST: QueuePolicy = {
  retryLimit: 2,
  retryDelay: 1,
  retryBackoff: false,
  expireInSeconds: 30,
};
const DEV: OutboundRule = { allowLoopback: true };

let db: TestDatabase;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: WorkerApp | undefined;
const clock = { now: () => new Date() };

const deps = () => ({
  repos: db.repos,
  clock,
  ids: { newId: () => randomUUID() },
  webhookUrls: outboundUrlPolicy(DEV),
});

async function startWorker(outbound: OutboundRule = DEV): Promise<WorkerApp> {
  const app = createApp({
    boss: createJobBoss(db.database.jobsDb),
    log: silentLogger(),
    pollingIntervalSeconds: 0.5,
    jobs: [
      webhookDeliveryJob({
        deliveries: createWebhookDeliveryStore(db.prisma),
        outbound,
        clock,
        timeoutMs: 5_000,
        policy: FAST,
      }),
    ],
  });
  await app.start();
  worker = app;
  return app;
}

/** An organization with one endpoint on the receiver, subscribed to `types`. */
async function anOrganizationWithEndpoint(
  types: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES,
) {
  const owner = await aUserWithOrganization(db.repos);
  const { endpoint, secret } = await createWebhookEndpoint(
    {
      actor: { userId: owner.user.id },
      organizationId: owner.organization.id,
      url: receiver.url,
      eventTypes: types,
      enabled: true,
    },
    deps(),
  );
  return { owner, endpoint, secret };
}

const forOrganization = (owner: Owner) => (r: Received) =>
  (JSON.parse(r.body) as { data: { organization: { id: string } } }).data.organization.id ===
  owner.organization.id;
const verified = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };

/** The delivery API's OpenAPI `webhooks` schema for an event type: the documented payload must be the one sent. */
const documented = (() => {
  const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(makeConfig(), '0.0.0'))) as {
    components: object;
    webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>;
  };
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  return (type: string) => ajv.compile({ $ref: `openapi${doc.webhooks[type]!.post.requestBody.content['application/json'].schema.$ref}` });
})();

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
  // Jobs copy their queue's policy when enqueued: the compressed one from the start.
  await createJobBoss(db.database.jobsDb).updateQueue(Queue.WebhookDelivery, {
    name: Queue.WebhookDelivery,
    ...FAST,
  });
});
afterEach(async () => {
  await worker?.stop({ graceful: false });
  worker = undefined;
  receiver.answer([]);
});
afterAll(async () => {
  await receiver.close();
  await db.close();
});

test('each event type arrives once, signed (verified with standardwebhooks), with ids, names, environment, actor and time', async () => {
  const { owner, secret } = await anOrganizationWithEndpoint();
  await startWorker();
  const actor = owner.user.id;
  const component = await aComponent(db.repos, {
    organizationId: owner.organization.id,
    createdBy: actor,
    name: 'Checkout',
  });
  await db.repos.components.editTags(
    component.id,
    { kind: 'set', tags: ['shop'] },
    { now: new Date(), maxTags: 50, audit: anAuditNote(actor) },
  );
  const second = await aVariant(db.repos, { componentId: component.id, createdBy: actor });
  const prod = owner.environments.find((e) => e.name === 'prod')!;
  const publish = (variantId: string) =>
    db.repos.releases.publish({
      eventId: randomUUID(),
      componentId: component.id,
      environmentId: prod.id,
      variantId,
      releasedBy: actor,
      now: new Date(),
      audit: anAuditNote(actor),
    });
  await publish(second.id);
  const firstVariantId = (
    await db.prisma.variant.findFirstOrThrow({ where: { componentId: component.id, sequence: 1 } })
  ).id;
  await publish(firstVariantId);

  const mine = () => receiver.received.filter(forOrganization(owner));
  await until(() => mine().length === 6);
  const events = mine().map((r) => verified(secret, r));
  expect(events.map((e) => e.type).sort()).toEqual(
    [
      'component.created',
      'component.tags_changed',
      'release.published',
      'release.published',
      'variant.created',
      'variant.created',
    ].sort(),
  );
  const common = {
    organization: { id: owner.organization.id, name: owner.organization.name },
    component: { id: component.id, name: 'Checkout' },
    actor: { id: actor, email: owner.user.email, via: null },
  };
  expect(events.find((e) => e.type === 'component.created')!.data).toEqual(common);
  expect(events.find((e) => e.type === 'component.tags_changed')!.data).toEqual({
    ...common,
    tags: { before: [], after: ['shop'] },
  });
  expect(
    events
      .filter((e) => e.type === 'variant.created')
      .map((e) => (e.data.variant as { sequence: number }).sequence)
      .sort(),
  ).toEqual([1, 2]);
  const releases = events.filter((e) => e.type === 'release.published').map((e) => e.data);
  const rollback = releases.find((d) => d.rollback === true)!;
  expect(rollback).toEqual({
    ...common,
    environment: { id: prod.id, name: 'prod' },
    variant: { id: firstVariantId, sequence: 1 },
    previousVariant: { id: second.id, sequence: 2 },
    rollback: true,
    releaseRequestId: null,
    releaseId: expect.any(String),
  });
  expect(releases.find((d) => d.rollback === false)!.previousVariant).toBeNull();
  for (const event of events) {
    const validate = documented(event.type);
    expect({ type: event.type, valid: validate(event), errors: validate.errors }).toEqual({ type: event.type, valid: true, errors: null });
  }
  for (const r of mine()) {
    expect(r.headers['content-type']).toBe('application/json');
    expect(String(r.headers['webhook-id'])).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(new Date(events[0]!.timestamp).getTime()).not.toBeNaN();
  }
});

test('the experience, rollout and app events are written as the OpenAPI `webhooks` document them', async () => {
  // The bodies are the bytes every attempt sends (webhook_messages), so no worker is needed here.
  const { owner, endpoint } = await anOrganizationWithEndpoint();
  const actor = owner.user.id;
  const component = await aComponent(db.repos, { organizationId: owner.organization.id, createdBy: actor });
  const v1 = (await db.repos.variants.findLatest(component.id))!.id;
  const v2 = (await aVariant(db.repos, { componentId: component.id, createdBy: actor })).id;
  const v3 = (await aVariant(db.repos, { componentId: component.id, createdBy: actor })).id;
  const [staging, prod] = ['staging', 'prod'].map((name) => owner.environments.find((e) => e.name === name)!.id);
  let clock = Date.now();
  const now = () => new Date((clock += 1000));
  const release = (variantId: string, environmentId = staging!) =>
    db.repos.releases.publish({ eventId: randomUUID(), componentId: component.id, environmentId, variantId, releasedBy: actor, now: now(), audit: anAuditNote(actor) });
  const start = (candidateVariantId: string, baselineVariantId: string) =>
    db.repos.rollouts.start({
      id: randomUUID(),
      componentId: component.id,
      environmentId: staging!,
      candidateVariantId,
      baselineVariantId,
      salt: randomUUID().slice(0, 16),
      stages: [{ weight: 1_000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 0 }],
      guard: DEFAULT_GUARD_SETTINGS,
      startedBy: actor,
      now: now(),
      audit: anAuditNote(actor),
    });
  const change = (rolloutId: string, expectedRevision: number, what: Parameters<typeof db.repos.rollouts.change>[0]['change'], by = actor) =>
    db.repos.rollouts.change({ rolloutId, expectedRevision, change: what, now: now(), audit: anAuditNote(by) });
  const regressed = (index: number): GuardWindow => ({
    index,
    from: now(),
    to: now(),
    weight: 1_000,
    candidate: { sessions: 200, errorSessions: 20 },
    release: { sessions: 19_800, errorSessions: 198 },
    rise: 0.09,
    z: 12.5,
    sampleRatioP: 0.6,
    verdict: 'regressed',
  });
  await release(v1);
  await db.repos.experiences.publish({
    componentId: component.id,
    environmentId: prod!,
    definition: { segments: [{ name: 'all', rules: [], arms: [{ variantId: v1, weight: 100_000 }] }] },
    salt: 'experience-salt',
    republishedFrom: null,
    moved: [{ segment: 'all', moved: 0 }],
    publishedBy: actor,
    now: now(),
    audit: anAuditNote(actor),
  });
  const stopped = await start(v2, v1);
  await change(stopped.id, 1, { kind: 'advance', stageIndex: 1, by: 'person' });
  await change(stopped.id, 2, { kind: 'stop', reason: 'Stopped by a person.' });
  const rolledBack = await start(v2, v1);
  await change(rolledBack.id, 1, { kind: 'window', window: regressed(0), outcome: 'continue', reason: null }, GUARD_ACTOR_ID);
  await change(rolledBack.id, 2, { kind: 'window', window: regressed(1), outcome: 'roll_back', reason: 'Rolled back after 2 regressed windows.' }, GUARD_ACTOR_ID);
  const promoted = await start(v2, v1);
  await change(promoted.id, 1, { kind: 'promote', releaseEventId: randomUUID() });
  await start(v1, v2);
  await release(v3); // another variant released meanwhile: that rollout stops, naming the release
  const settings = { title: 'Price', description: 'Shows the price.', inputSchema: { type: 'object' }, actionTools: { buy: 'publish_component' } };
  await db.repos.apps.save({ componentId: component.id, environmentId: prod!, settings, savedBy: actor, now: now(), audit: anAuditNote(actor) });
  await db.repos.apps.remove({ componentId: component.id, removedBy: actor, now: now(), audit: anAuditNote(actor) });

  const bodies = (await db.prisma.webhookMessage.findMany({ where: { endpointId: endpoint.id } })).map(
    (m) => JSON.parse(m.body) as { type: string; data: Record<string, unknown> },
  );
  expect([...new Set(bodies.map((b) => b.type))].sort()).toEqual([...WEBHOOK_EVENT_TYPES].filter((t) => t !== 'component.tags_changed').sort());
  expect(bodies.filter((b) => b.type === 'rollout.stopped').map((b) => 'releaseId' in b.data)).toEqual(expect.arrayContaining([true, false]));
  for (const body of bodies) {
    const validate = documented(body.type);
    expect({ type: body.type, valid: validate(body), errors: validate.errors }).toEqual({ type: body.type, valid: true, errors: null });
    expect(validate({ ...body, data: { ...body.data, undocumented: true } })).toBe(false);
  }
});

test('an event enqueued while no worker runs is delivered once after a worker starts', async () => {
  const { owner } = await anOrganizationWithEndpoint();
  const component = await aComponent(db.repos, {
    organizationId: owner.organization.id,
    createdBy: owner.user.id,
  });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(receiver.received.filter(forOrganization(owner))).toEqual([]);
  await startWorker();
  await until(() => receiver.received.filter(forOrganization(owner)).length === 2);
  // Another worker and a few more polls: nothing is sent twice.
  await worker!.stop({ graceful: true });
  await startWorker();
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const ids = receiver.received.filter(forOrganization(owner)).map((r) => r.headers['webhook-id']);
  expect(ids).toHaveLength(2);
  expect(new Set(ids).size).toBe(2);
  expect(component.id).toBeDefined();
});

test('a receiver that fails twice then succeeds gets the same message three times, each signed anew', async () => {
  const { owner, secret, endpoint } = await anOrganizationWithEndpoint(['component.tags_changed']);
  const component = await aComponent(db.repos, {
    organizationId: owner.organization.id,
    createdBy: owner.user.id,
  });
  receiver.answer([500, 500], 204);
  await startWorker();
  await db.repos.components.editTags(
    component.id,
    { kind: 'change', add: ['x'], remove: [] },
    { now: new Date(), maxTags: 50, audit: anAuditNote(owner.user.id) },
  );
  const mine = () => receiver.received.filter(forOrganization(owner));
  await until(() => mine().length === 3);
  expect(new Set(mine().map((r) => r.headers['webhook-id'])).size).toBe(1);
  for (const r of mine()) expect(verified(secret, r).type).toBe('component.tags_changed');
  await until(
    async () =>
      (await db.repos.webhookEndpoints.recentAttempts(owner.organization.id, endpoint.id, 10))
        .length === 3,
  );
  const attempts = await db.repos.webhookEndpoints.recentAttempts(
    owner.organization.id,
    endpoint.id,
    10,
  );
  expect(attempts.map((a) => [a.attempt, a.delivered, a.responseStatus]).reverse()).toEqual([
    [1, false, 500],
    [2, false, 500],
    [3, true, 204],
  ]);
  expect(attempts[2]!.detail).toBe('HTTP 500: ok from receiver');
  expect((await db.repos.webhookEndpoints.find(owner.organization.id, endpoint.id))!.enabled).toBe(
    true,
  );
});

test('when the last retry fails the endpoint is disabled with the reason, and later events are not sent', async () => {
  const { owner, endpoint } = await anOrganizationWithEndpoint(['component.created']);
  receiver.answer([], 503);
  await startWorker();
  await aComponent(db.repos, { organizationId: owner.organization.id, createdBy: owner.user.id });
  await until(
    async () =>
      !(await db.repos.webhookEndpoints.find(owner.organization.id, endpoint.id))!.enabled,
  );
  const disabled = (await db.repos.webhookEndpoints.find(owner.organization.id, endpoint.id))!;
  expect(disabled.disabled!.reason).toMatch(
    /^The last of 3 attempts to deliver msg_[0-9a-f]{32} failed: HTTP 503: ok from receiver$/,
  );
  expect(receiver.received.filter(forOrganization(owner))).toHaveLength(3);
  await aComponent(db.repos, { organizationId: owner.organization.id, createdBy: owner.user.id });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(receiver.received.filter(forOrganization(owner))).toHaveLength(3);
});

test('redeliver sends the same message again: same webhook-id and body, new timestamp and signature', async () => {
  const { owner, secret, endpoint } = await anOrganizationWithEndpoint(['component.created']);
  await startWorker();
  await aComponent(db.repos, { organizationId: owner.organization.id, createdBy: owner.user.id });
  const mine = () => receiver.received.filter(forOrganization(owner));
  await until(() => mine().length === 1);
  // The worker records the attempt once the POST has answered, so shortly after the receiver saw it.
  const attempts = () => db.repos.webhookEndpoints.recentAttempts(owner.organization.id, endpoint.id, 1);
  await until(async () => (await attempts()).length === 1);
  const [attempt] = await attempts();
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await redeliverWebhookMessage(
    {
      actor: { userId: owner.user.id },
      organizationId: owner.organization.id,
      endpointId: endpoint.id,
      messageId: attempt!.messageId,
    },
    deps(),
  );
  await until(() => mine().length === 2);
  const [a, b] = mine();
  expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
  expect(b!.body).toBe(a!.body);
  expect(b!.headers['webhook-timestamp']).not.toBe(a!.headers['webhook-timestamp']);
  expect(verified(secret, b!).type).toBe('component.created');
});

test('the worker checks the URL again at delivery: a loopback endpoint is refused under the production rule, and nothing is sent', async () => {
  const { owner, endpoint } = await anOrganizationWithEndpoint(['component.created']);
  await startWorker({ allowLoopback: false });
  await aComponent(db.repos, { organizationId: owner.organization.id, createdBy: owner.user.id });
  await until(
    async () =>
      (await db.repos.webhookEndpoints.recentAttempts(owner.organization.id, endpoint.id, 1))
        .length === 1,
  );
  const [attempt] = await db.repos.webhookEndpoints.recentAttempts(
    owner.organization.id,
    endpoint.id,
    1,
  );
  expect(attempt!.detail).toBe(
    'refused: its host resolves to 127.0.0.1, a loopback address: events are sent only to public addresses.',
  );
  expect(receiver.received.filter(forOrganization(owner))).toEqual([]);
});
