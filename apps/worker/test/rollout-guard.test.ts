import { randomUUID } from 'node:crypto';
import { createRolloutFigures, createUsageMaintenance, createUsageWriter, Queue } from '@cp/db';
import {
  aComponent,
  aUsageEvent,
  aUserWithOrganization,
  aVariant,
  createTestDatabase,
  type TestDatabase,
} from '@cp/db/testing';
import { publishVariant, startRollout, type UsageEvent } from '@cp/domain';
import { silentLogger } from '@cp/http-runtime';
import { ROLLOUT_GUARD_SCHEDULE, rolloutGuardJob, type Job } from '../src/index.js';

// One guard round on a real database (PGlite, or PostgreSQL with DATABASE_URL): the job's handler
// called as pg-boss would call it, over the usage events the SDK would have sent. The guard's
// rules themselves are tested in packages/domain; this proves the wiring reads and writes for real.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const start = new Date('2033-09-01T12:00:00Z');
let now = start;
const clock = { now: () => now };

/** `count` sessions of one variant, each with a render; the first `withErrors` also report an error. */
const sessions = (
  componentId: string,
  variantId: string,
  count: number,
  withErrors: number,
): UsageEvent[] =>
  Array.from({ length: count }, (_, i) => {
    const base = {
      componentId,
      variantId,
      environment: 'staging',
      sessionId: randomUUID().replace(/-/g, '').slice(0, 22),
      at: new Date(start.getTime() + 60_000 + i),
    };
    const render = aUsageEvent(base);
    if (i >= withErrors) return [render];
    return [
      render,
      aUsageEvent({
        ...base,
        type: 'error',
        name: 'uncaught',
        value: null,
        sequence: 1,
        error: { errorClass: 'TypeError', message: 'x is undefined', stackHash: '0badc0de' },
      }),
    ];
  }).flat();

test('the rollout-guard job runs every minute and rolls back a running rollout whose candidate errors more than the release', async () => {
  const { user, organization } = await aUserWithOrganization(db.repos);
  const component = await aComponent(db.repos, {
    organizationId: organization.id,
    createdBy: user.id,
  });
  const release = (await db.repos.variants.findLatest(component.id))!;
  const candidate = await aVariant(db.repos, { componentId: component.id, createdBy: user.id });
  const deps = {
    repos: db.repos,
    ids: { newId: randomUUID },
    clock,
    figures: createRolloutFigures(db.database.sql),
  };
  const actor = { userId: user.id };
  await publishVariant(
    { actor, componentId: component.id, environment: 'staging', variantId: release.id },
    deps,
  );
  const started = await startRollout(
    {
      actor,
      componentId: component.id,
      environment: 'staging',
      candidateVariantId: candidate.id,
      stages: [{ weight: 50_000, holdMinutes: 60 }],
      guard: { regressedWindows: 1 },
    },
    deps,
  );
  if (started.outcome !== 'started') throw new Error('expected a started rollout');

  await createUsageMaintenance(db.database.sql).createPartitions(start, 1);
  await createUsageWriter(db.database.sql).append([
    ...sessions(component.id, candidate.id, 200, 40),
    ...sessions(component.id, release.id, 200, 2),
  ]);
  now = new Date(start.getTime() + 10 * 60_000);

  const job = rolloutGuardJob({ ...deps, log: silentLogger() });
  expect(job).toMatchObject({ queue: Queue.RolloutGuard, schedule: ROLLOUT_GUARD_SCHEDULE });
  await job.handler({ id: randomUUID(), data: {} } as Job<object>);

  const rollout = (await db.repos.rollouts.findById(started.rollout.id))!;
  expect(rollout).toMatchObject({
    state: 'rolled_back',
    weight: 0,
    revision: started.rollout.revision + 1,
  });
  expect(rollout.reason).toMatch(
    /^Rolled back after 1 regressed windows: candidate 40\/200 sessions with errors/,
  );
  const windows = await db.repos.rollouts.windows(rollout.id);
  expect(windows).toMatchObject([
    {
      index: 0,
      verdict: 'regressed',
      candidate: { sessions: 200, errorSessions: 40 },
      release: { sessions: 200, errorSessions: 2 },
    },
  ]);
});
