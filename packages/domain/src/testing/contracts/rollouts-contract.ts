/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { DEFAULT_GUARD_SETTINGS, type GuardWindow } from '../../entities/rollout.js';
import { GUARD_ACTOR_ID } from '../../ports/rollouts.js';
import {
  STAGES,
  anExperienceTeam,
  codeOf,
  note,
  type ExperiencesSubject,
} from './experience-team.js';

/** A window the guard closed, `index` of the rollout's. */
const aWindow = (index: number, verdict: GuardWindow['verdict'], at: Date): GuardWindow => ({
  index,
  from: new Date(at.getTime() - 600_000),
  to: at,
  weight: 1_000,
  candidate: { sessions: 200, errorSessions: verdict === 'regressed' ? 20 : 2 },
  release: { sessions: 19_800, errorSessions: 198 },
  rise: verdict === 'regressed' ? 0.09 : 0,
  z: verdict === 'regressed' ? 12.5 : 0,
  sampleRatioP: verdict === 'sample_ratio_mismatch' ? 0.0001 : 0.6,
  verdict,
});

/** Rollouts and their delivery (Assignments), for every implementation: one live per place, changes at a revision, releases ending them. */
export function rolloutsContract(subject: () => ExperiencesSubject): void {
  const team = () => anExperienceTeam(subject());

  it('starts a rollout at its first stage, one live per component environment, against the release it names', async () => {
    const { repos, componentId, organizationId, ids, owner, v1, v2, v3, start } = await team();
    const rollout = await start();
    expect(rollout).toMatchObject({
      organizationId,
      componentId,
      environmentId: ids.staging,
      environmentName: 'staging',
      candidateVariantId: v2,
      baselineVariantId: v1,
      stages: STAGES,
      stageIndex: 0,
      weight: 1_000,
      state: 'running',
      revision: 1,
      startedBy: owner,
      endedAt: null,
      reason: null,
    });
    expect(rollout.stageStartedAt).toEqual(rollout.startedAt);
    expect(await repos.rollouts.findById(rollout.id)).toEqual(rollout);
    expect(await repos.rollouts.findLive(componentId, ids.staging)).toEqual(rollout);
    expect((await repos.rollouts.listLive()).map((r) => r.id)).toContain(rollout.id);
    expect(await repos.rollouts.findById('not-a-uuid')).toBeNull();
    expect(await codeOf(start({ candidate: v3 }))).toBe('CONFLICT');
    expect(await codeOf(start({ environmentId: ids.prod, baseline: v3 }))).toBe('CONFLICT');
    expect(await codeOf(start({ environmentId: ids.prod, candidate: v1 }))).toBe('CONFLICT');
    const parallel = await Promise.allSettled(
      Array.from({ length: 5 }, () => start({ environmentId: ids.prod })),
    );
    expect(parallel.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await repos.rollouts.listForComponent(componentId, 10)).toHaveLength(2);
    const audit = (await subject().auditOf(componentId)).filter(
      (row) => row.kind === 'rollout.started',
    );
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      actorId: owner,
      details: {
        environment: 'staging',
        rolloutId: rollout.id,
        candidate: { id: v2, sequence: 2 },
        baseline: { id: v1, sequence: 1 },
        weight: 1_000,
      },
    });
    const events = (await subject().webhookEventsOf(organizationId)).filter(
      (e) => e.type === 'rollout.started',
    );
    expect(events.map((e) => e.data.rolloutId)).toContain(rollout.id);
  });

  it('advances, pauses, resumes and stops at the revision the caller read; a stale or ended one is a CONFLICT', async () => {
    const { repos, componentId, organizationId, owner, start, change } = await team();
    const started = await start();
    const advanced = await change(started.id, 1, { kind: 'advance', stageIndex: 1, by: 'person' });
    expect(advanced).toMatchObject({ stageIndex: 1, weight: 5_000, state: 'running', revision: 2 });
    expect(advanced.stageStartedAt.getTime()).toBeGreaterThan(started.stageStartedAt.getTime());
    expect(advanced.windowStartedAt).toEqual(advanced.stageStartedAt);
    expect(await codeOf(change(started.id, 1, { kind: 'pause', reason: null }))).toBe('CONFLICT');
    const paused = await change(started.id, 2, { kind: 'pause', reason: 'checking the logs' });
    expect(paused).toMatchObject({
      state: 'paused',
      reason: 'checking the logs',
      revision: 3,
      weight: 5_000,
    });
    expect((await repos.rollouts.findLive(componentId, paused.environmentId))?.id).toBe(started.id);
    const resumed = await change(started.id, 3, { kind: 'resume' });
    expect(resumed).toMatchObject({ state: 'running', reason: null, revision: 4 });
    const stopped = await change(started.id, 4, { kind: 'stop', reason: 'Stopped by a person.' });
    expect(stopped).toMatchObject({
      state: 'stopped',
      weight: 0,
      revision: 5,
      reason: 'Stopped by a person.',
    });
    expect(stopped.endedAt).not.toBeNull();
    expect(await codeOf(change(started.id, 5, { kind: 'resume' }))).toBe('CONFLICT');
    expect(await codeOf(change(randomUUID(), 1, { kind: 'resume' }))).toBe('NOT_FOUND');
    expect(await repos.rollouts.findLive(componentId, stopped.environmentId)).toBeNull();
    const audit = (await subject().auditOf(componentId)).filter((row) =>
      row.kind.startsWith('rollout.'),
    );
    expect(audit.map((row) => [row.kind, row.actorId, row.details.by])).toEqual([
      ['rollout.started', owner, 'person'],
      ['rollout.advanced', owner, 'person'],
      ['rollout.paused', owner, 'person'],
      ['rollout.resumed', owner, 'person'],
      ['rollout.stopped', owner, 'person'],
    ]);
    expect(audit[1]!.details).toMatchObject({ fromStageIndex: 0, stageIndex: 1, weight: 5_000 });
    const events = (await subject().webhookEventsOf(organizationId))
      .map((e) => e.type)
      .filter((t) => t.startsWith('rollout.'));
    expect(events).toEqual(['rollout.started', 'rollout.advanced', 'rollout.stopped']);
  });

  it('of 10 parallel changes with the same expectedRevision exactly one succeeds', async () => {
    const { repos, start, change } = await team();
    const rollout = await start();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        change(
          rollout.id,
          1,
          i % 2
            ? { kind: 'pause', reason: null }
            : { kind: 'advance', stageIndex: 1, by: 'person' },
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT' });
    expect((await repos.rollouts.findById(rollout.id))?.revision).toBe(2);
  });

  it("records the guard's windows, rolls back with the deciding windows' figures, and pauses on a sample-ratio mismatch", async () => {
    const { repos, componentId, organizationId, ids, now, start, change } = await team();
    const rollout = await start();
    const healthy = aWindow(0, 'healthy', now());
    const kept = await change(
      rollout.id,
      1,
      { kind: 'window', window: healthy, outcome: 'continue', reason: null },
      GUARD_ACTOR_ID,
    );
    expect(kept).toMatchObject({ state: 'running', revision: 2, windowStartedAt: healthy.to });
    const regressed = aWindow(1, 'regressed', now());
    await change(
      rollout.id,
      2,
      { kind: 'window', window: regressed, outcome: 'continue', reason: null },
      GUARD_ACTOR_ID,
    );
    const last = aWindow(2, 'regressed', now());
    const reason = 'Rolled back after 2 regressed windows.';
    const rolledBack = await change(
      rollout.id,
      3,
      { kind: 'window', window: last, outcome: 'roll_back', reason },
      GUARD_ACTOR_ID,
    );
    expect(rolledBack).toMatchObject({ state: 'rolled_back', weight: 0, reason, revision: 4 });
    expect(rolledBack.endedAt).not.toBeNull();
    expect(await repos.rollouts.windows(rollout.id)).toEqual([healthy, regressed, last]);
    const audit = (await subject().auditOf(componentId)).filter(
      (row) => row.kind === 'rollout.rolled_back',
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: GUARD_ACTOR_ID,
      details: { by: 'guard', reason, weight: 0, fromWeight: 1_000 },
    });
    const windows = audit[0]!.details.windows as {
      index: number;
      verdict: string;
      candidate: unknown;
      z: number;
    }[];
    expect(windows.map((w) => [w.index, w.verdict])).toEqual([
      [1, 'regressed'],
      [2, 'regressed'],
    ]);
    expect(windows[1]).toMatchObject({ candidate: { sessions: 200, errorSessions: 20 }, z: 12.5 });
    const event = (await subject().webhookEventsOf(organizationId)).find(
      (e) => e.type === 'rollout.rolled_back',
    );
    expect(event?.data).toMatchObject({ rolloutId: rollout.id, reason, windows: windows as never });

    const second = await start({ environmentId: ids.prod });
    const mismatch = 'Paused: sessions do not split as the weight says.';
    const paused = await change(
      second.id,
      1,
      {
        kind: 'window',
        window: aWindow(0, 'sample_ratio_mismatch', now()),
        outcome: 'pause',
        reason: mismatch,
      },
      GUARD_ACTOR_ID,
    );
    expect(paused).toMatchObject({ state: 'paused', reason: mismatch, weight: 1_000 });
    // The guard advances in a protected environment (it is no person).
    const advanced = await change(
      second.id,
      2,
      { kind: 'advance', stageIndex: 1, by: 'guard' },
      GUARD_ACTOR_ID,
    );
    expect(advanced).toMatchObject({ stageIndex: 1, weight: 5_000 });
  });

  it('promote releases the candidate in the same write; a member may stop but not advance or promote in a protected environment', async () => {
    const { repos, componentId, organizationId, ids, member, owner, v2, start, change } =
      await team();
    const rollout = await start({ environmentId: ids.prod });
    expect(
      await codeOf(change(rollout.id, 1, { kind: 'advance', stageIndex: 1, by: 'person' }, member)),
    ).toBe('ENVIRONMENT_PROTECTED');
    expect(
      await codeOf(
        change(rollout.id, 1, { kind: 'promote', releaseEventId: randomUUID() }, member),
      ),
    ).toBe('ENVIRONMENT_PROTECTED');
    const paused = await change(rollout.id, 1, { kind: 'pause', reason: null }, member);
    const releaseEventId = randomUUID();
    const promoted = await change(
      rollout.id,
      paused.revision,
      { kind: 'promote', releaseEventId },
      owner,
    );
    expect(promoted).toMatchObject({ state: 'promoted', revision: 3 });
    expect(promoted.endedAt).not.toBeNull();
    expect(await repos.releases.findCurrent(componentId, ids.prod)).toMatchObject({
      variantId: v2,
      releasedBy: owner,
    });
    expect((await repos.releases.history(componentId, { limit: 1 }))[0]?.id).toBe(releaseEventId);
    const kinds = (await subject().auditOf(componentId)).map((row) => row.kind);
    expect(kinds.slice(-2).sort()).toEqual(['release.published', 'rollout.promoted']);
    const types = (await subject().webhookEventsOf(organizationId)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['rollout.promoted', 'release.published']));

    const second = await start({ environmentId: ids.staging });
    const stopped = await change(
      second.id,
      1,
      { kind: 'stop', reason: 'a member pulled the switch' },
      member,
    );
    expect(stopped).toMatchObject({ state: 'stopped', weight: 0 });
  });

  it('releasing the candidate by any path promotes a live rollout; releasing another variant stops it', async () => {
    const { repos, componentId, organizationId, ids, owner, v2, v3, release, start } = await team();
    const first = await start();
    await release(v2);
    expect(await repos.rollouts.findById(first.id)).toMatchObject({
      state: 'promoted',
      revision: 2,
    });
    const second = await start({ candidate: v3, baseline: v2 });
    await release(v2, ids.staging);
    const stopped = await repos.rollouts.findById(second.id);
    expect(stopped).toMatchObject({ state: 'stopped', weight: 0, revision: 2 });
    expect(stopped?.reason).toContain('v2');
    const audit = (await subject().auditOf(componentId)).filter(
      (row) => row.kind === 'rollout.promoted' || row.kind === 'rollout.stopped',
    );
    expect(audit.map((row) => [row.kind, row.actorId, row.details.rolloutId])).toEqual([
      ['rollout.promoted', owner, first.id],
      ['rollout.stopped', owner, second.id],
    ]);
    const types = (await subject().webhookEventsOf(organizationId))
      .map((e) => e.type)
      .filter((t) => t === 'rollout.promoted' || t === 'rollout.stopped');
    expect(types).toEqual(['rollout.promoted', 'rollout.stopped']);
  });

  it("approving a member's rollout request starts it against the current release, by the approver", async () => {
    const { repos, componentId, ids, owner, member, v1, v3, now } = await team();
    const { request } = await repos.releaseRequests.create({
      id: randomUUID(),
      componentId,
      environmentId: ids.prod,
      variantId: v3,
      plan: { kind: 'rollout', stages: STAGES, guard: DEFAULT_GUARD_SETTINGS },
      requestedBy: member,
      now: now(),
      audit: note(member),
    });
    const rolloutId = randomUUID();
    const approved = await repos.releaseRequests.approve({
      requestId: request.id,
      approvedBy: owner,
      eventId: randomUUID(),
      now: now(),
      audit: note(owner),
      publishAuditId: randomUUID(),
      salt: 'approved-salt',
      rolloutId,
      moved: [],
    });
    if (approved.outcome !== 'approved' || approved.applied.kind !== 'rollout')
      throw new Error(approved.outcome);
    expect(approved.applied.rollout).toMatchObject({
      id: rolloutId,
      candidateVariantId: v3,
      baselineVariantId: v1,
      startedBy: owner,
      salt: 'approved-salt',
      state: 'running',
    });
    expect(approved.request).toMatchObject({ state: 'approved', releaseEventId: null });
    const started = (await subject().auditOf(componentId)).find(
      (row) => row.kind === 'rollout.started',
    );
    expect(started).toMatchObject({
      actorId: owner,
      details: { requestId: request.id, requestedBy: member },
    });
  });

  it('answers a live rollout as the candidate owning [0, weight) and the release the rest, at a new revision only when the split changes; nothing once it stops', async () => {
    const { repos, componentId, v2, start, change } = await team();
    const rollout = await start();
    const live = await repos.assignments.findLive(componentId, 'staging');
    expect(live).toEqual({
      kind: 'rollout',
      revision: live!.revision,
      segments: [
        {
          rules: [],
          salt: rollout.salt,
          arms: [
            { arm: 'v2', variantId: v2, upTo: 1_000 },
            { arm: 'release', variantId: null, upTo: 100_000 },
          ],
        },
      ],
    });
    const paused = await change(rollout.id, 1, { kind: 'pause', reason: null });
    expect((await repos.assignments.findLive(componentId, 'staging'))!.revision).toBe(live!.revision);
    const resumed = await change(rollout.id, paused.revision, { kind: 'resume' });
    const advanced = await change(rollout.id, resumed.revision, { kind: 'advance', stageIndex: 1, by: 'person' });
    expect((await repos.assignments.findLive(componentId, 'staging'))!.revision).toBeGreaterThan(live!.revision);
    await change(rollout.id, advanced.revision, { kind: 'stop', reason: 'done' });
    expect(await repos.assignments.findLive(componentId, 'staging')).toBeNull();
  });
}
