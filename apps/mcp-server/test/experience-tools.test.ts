/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { aComponent, aMemberOf, aVariant } from '@cp/db/testing';
import { publishVariant, type Component, type User, type Variant } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, startHarness, type Harness } from './support/harness.js';

/*
 * The experience and rollout tools over real HTTP (the SDK client, createApp, the database): what
 * the tool layer adds to the use cases, namely percentages in and out, the shaping of each outcome,
 * and the conflict an assistant must answer by reading again. The rules themselves are the domain's
 * tests; scopes per tool are auth.test.ts's (every write tool with a read-only token).
 */
let domain: TestDomain;
let h: Harness;
let owner: User;
let component: Component;
let v1: Variant;
let v2: Variant;
let v3: Variant;
let asOwner: Client;

type Result = { structuredContent?: Record<string, any>; isError?: boolean };
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: { componentId: component.id, ...args } })) as Result;
const ok = (result: Result) => {
  expect(result.structuredContent).toMatchObject({ success: true });
  return result.structuredContent!;
};
const refusal = (result: Result) => {
  expect(result.isError).toBe(true);
  return result.structuredContent!.error as { code: string; message: string };
};

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps, figures: domain.figures });
  owner = await aUser(h.domain);
  component = await aComponent(domain.deps.repos, {
    organizationId: owner.defaultOrganizationId,
    createdBy: owner.id,
    name: 'Offer banner',
  });
  v1 = (await domain.deps.repos.variants.findLatest(component.id))!;
  v2 = await aVariant(domain.deps.repos, { componentId: component.id, createdBy: owner.id });
  v3 = await aVariant(domain.deps.repos, { componentId: component.id, createdBy: owner.id });
  for (const environment of ['staging', 'prod']) {
    await publishVariant(
      { actor: { userId: owner.id }, componentId: component.id, environment, variantId: v1.id },
      domain.deps,
    );
  }
  asOwner = await h.connect(await h.tokenFor(owner));
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

const environmentId = async (name: string) =>
  (await domain.deps.repos.environments.findByName(owner.defaultOrganizationId, name))!.id;

const thirds = () => [
  { variantId: v1.id, percent: 33.333 },
  { variantId: v2.id, percent: 33.333 },
  { variantId: v3.id, percent: 33.334 },
];

test('set_experience takes percentages to the thousandth, exactly (a finer one: parameters.test.ts); publish_experience makes the draft live; get_experience answers both', async () => {
  const segments = [
    {
      name: 'EU',
      rules: [{ attribute: 'country', operator: 'in', values: ['DE', 'FR'] }],
      arms: thirds(),
    },
    { name: 'Everyone', arms: [{ variantId: v2.id, percent: 100 }] },
  ];
  const saved = ok(await call(asOwner, 'set_experience', { environment: 'staging', segments }));
  expect(saved.segments).toEqual([
    { ...segments[0], rules: segments[0]!.rules },
    { ...segments[1], rules: [] },
  ]);
  const draft = await domain.deps.repos.experiences.findDraft(
    component.id,
    await environmentId('staging'),
  );
  expect(draft!.definition.segments[0]!.arms.map((arm) => arm.weight)).toEqual([
    33_333, 33_333, 33_334,
  ]);

  const published = ok(
    await call(asOwner, 'publish_experience', { environment: 'staging', expectedLive: null }),
  );
  expect(published).toMatchObject({
    status: 'published',
    revision: 1,
    republishedFrom: null,
    moved: [],
  });
  expect(published.message).toContain(
    'Revision 1 is live in staging: "EU": country in [DE, FR] -> 33.333%',
  );

  const read = ok(await call(asOwner, 'get_experience', { environment: 'staging' }));
  expect(read).toMatchObject({
    live: { revision: 1, segments: saved.segments },
    draft: { segments: saved.segments },
    liveRollout: null,
  });
  expect(read.history).toMatchObject([{ revision: 1, segments: 2 }]);
  expect(read.message).toContain('The draft is the same as the latest revision.');
});

test('start_rollout, get_rollout, change_rollout, stop_rollout: a canary in prod from start to stop', async () => {
  const started = ok(
    await call(asOwner, 'start_rollout', {
      environment: 'prod',
      candidateVariantId: v2.id,
      stages: [
        { percent: 5, holdMinutes: 60 },
        { percent: 100, holdMinutes: 0 },
      ],
      guard: { errorRateRisePoints: 2 },
    }),
  );
  expect(started).toMatchObject({
    status: 'started',
    environment: 'prod',
    rollout: {
      state: 'running',
      stage: 1,
      percent: 5,
      candidateVariantId: v2.id,
      releaseVariantId: v1.id,
    },
  });
  const stored = (await domain.deps.repos.rollouts.findById(started.rollout.rolloutId))!;
  expect(stored.guard.minErrorRateRise).toBe(0.02);

  const read = ok(await call(asOwner, 'get_rollout', { environment: 'prod' }));
  expect(read).toMatchObject({
    rollout: { state: 'running', stage: 1, percent: 5, revision: started.rollout.revision },
    stageFigures: {
      candidate: { sessions: 0, errorSessions: 0, errorRate: null },
      release: { sessions: 0 },
    },
    openWindow: { candidate: { sessions: 0 } },
    windows: [],
    windowsTotal: 0,
  });
  expect(read.message).toMatch(
    /^Rollout of .+ in prod: running at stage 1 of 2 \(5%\), revision \d+\.\nAt this stage: candidate 0 sessions/,
  );

  const paused = ok(
    await call(asOwner, 'change_rollout', {
      environment: 'prod',
      action: 'pause',
      expectedRevision: read.rollout.revision,
    }),
  );
  expect(paused.rollout).toMatchObject({ state: 'paused', revision: read.rollout.revision + 1 });

  const stopped = ok(
    await call(asOwner, 'stop_rollout', {
      environment: 'prod',
      reason: 'Checkout errors in the candidate',
    }),
  );
  expect(stopped.rollout).toMatchObject({
    state: 'stopped',
    percent: 0,
    reason: 'Checkout errors in the candidate',
  });
  expect(ok(await call(asOwner, 'get_rollout', { environment: 'prod' }))).toMatchObject({
    rollout: { state: 'stopped' },
    stageFigures: null,
    openWindow: null,
  });
});

test('a change on a revision read before another change: CONFLICT, saying to read the rollout again; nothing changes', async () => {
  const { rollout } = ok(
    await call(asOwner, 'start_rollout', { environment: 'prod', candidateVariantId: v3.id }),
  );
  ok(
    await call(asOwner, 'change_rollout', {
      environment: 'prod',
      action: 'pause',
      expectedRevision: rollout.revision,
    }),
  );
  const error = refusal(
    await call(asOwner, 'change_rollout', {
      environment: 'prod',
      action: 'advance',
      expectedRevision: rollout.revision,
    }),
  );
  expect(error.code).toBe('CONFLICT');
  expect(error.message).toBe(
    `The rollout is no longer at revision ${rollout.revision}: it changed since you read it (the guard or someone else moved it, or it ended). ` +
      'Call get_rollout to read its state and revision again, then decide with that revision.',
  );
  expect((await domain.deps.repos.rollouts.findById(rollout.rolloutId))!).toMatchObject({
    state: 'paused',
    stageIndex: 0,
  });
  ok(await call(asOwner, 'stop_rollout', { environment: 'prod' }));
});

test("a member's rollout in a protected environment is a release request, answered as publish_component answers one", async () => {
  const member = await aMemberOf(domain.database, owner.defaultOrganizationId, 'member');
  const asMember = await h.connect(await h.tokenFor(member));
  const requested = ok(
    await call(asMember, 'start_rollout', { environment: 'prod', candidateVariantId: v2.id }),
  );
  expect(requested).toMatchObject({
    status: 'pending_approval',
    environment: 'prod',
    request: { state: 'pending', approvers: [owner.email] },
  });
  expect(requested.rollout).toBeUndefined();
  expect(requested.message).toContain(
    '"prod" is protected, so a release request was made for a rollout of version 2',
  );
  expect(
    await domain.deps.repos.rollouts.findLive(component.id, await environmentId('prod')),
  ).toBeNull();
});

test('a viewer reads experiences but cannot save one: FORBIDDEN', async () => {
  const viewer = await aMemberOf(domain.database, owner.defaultOrganizationId, 'viewer');
  const asViewer = await h.connect(await h.tokenFor(viewer));
  ok(await call(asViewer, 'get_experience', { environment: 'staging' }));
  const error = refusal(
    await call(asViewer, 'set_experience', { environment: 'staging', segments: [] }),
  );
  expect(error.code).toBe('FORBIDDEN');
});
