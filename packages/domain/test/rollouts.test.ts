import { randomUUID } from 'node:crypto';
import type { Actor } from '../src/entities/user.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import type { Rollouts } from '../src/ports/rollouts.js';
import { publishExperience } from '../src/use-cases/experiences/publish-experience.js';
import { saveExperienceDraft } from '../src/use-cases/experiences/save-experience-draft.js';
import { approveReleaseRequest } from '../src/use-cases/release-requests/approve-release-request.js';
import { changeRollout, type RolloutAction } from '../src/use-cases/rollouts/change-rollout.js';
import { promoteRollout } from '../src/use-cases/rollouts/promote-rollout.js';
import { startRollout } from '../src/use-cases/rollouts/start-rollout.js';
import { stopRollout } from '../src/use-cases/rollouts/stop-rollout.js';
import { anUploadedComponent } from './builders.js';
import { aSegment, aTeamWithAReleasedComponent } from './experience-builders.js';

async function aTeam() {
  const team = await aTeamWithAReleasedComponent();
  const { deps, owner, componentId, variants } = team;
  const start = (actor: Actor = owner.actor, environment = 'staging', extra: Partial<Parameters<typeof startRollout>[0]> = {}) =>
    startRollout({ actor, componentId, environment, candidateVariantId: variants[1], ...extra }, deps);
  const started = async (...args: Parameters<typeof start>) => {
    const outcome = await start(...args);
    if (outcome.outcome !== 'started') throw new Error(`expected a start, got request ${outcome.request.id}`);
    return outcome.rollout;
  };
  const change = (action: RolloutAction, expectedRevision: number, actor: Actor = owner.actor, environment = 'staging') =>
    changeRollout({ actor, componentId, environment, action, expectedRevision }, deps);
  return { ...team, start, started, change };
}

describe('starting rollouts', () => {
  it('starts at the first stage with its own salt, live as a split of the candidate and the release', async () => {
    const { started, repos, componentId, variants } = await aTeam();
    const rollout = await started();
    expect(rollout).toMatchObject({ state: 'running', stageIndex: 0, weight: 1_000, revision: 1, candidateVariantId: variants[1], baselineVariantId: variants[0] });
    expect(rollout.salt).toMatch(/^[0-9a-f]{16}$/);
    expect(await repos.assignments.findLive(componentId, 'staging')).toMatchObject({
      kind: 'rollout',
      segments: [{ rules: [], salt: rollout.salt, arms: [{ arm: 'v2', upTo: 1_000 }, { arm: 'release', upTo: 100_000 }] }],
    });
  });

  it('refuses the release as candidate, a bad plan, an unknown variant, a second rollout, a live experience, and no release', async () => {
    const { start, started, deps, objects, owner, componentId, variants } = await aTeam();
    await expect(start(owner.actor, 'staging', { candidateVariantId: variants[0] })).rejects.toMatchObject({ code: ErrorCode.Conflict });
    await expect(start(owner.actor, 'staging', { stages: [{ weight: 5_000, holdMinutes: 60 }, { weight: 1_000, holdMinutes: 60 }] })).rejects.toMatchObject({
      code: ErrorCode.InvalidInput,
      details: { field: 'stages[1].weight' },
    });
    await expect(start(owner.actor, 'staging', { guard: { windowSessions: 10 } })).rejects.toMatchObject({ details: { field: 'guard.windowSessions' } });
    await expect(start(owner.actor, 'staging', { candidateVariantId: randomUUID() })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await started();
    await expect(start()).rejects.toMatchObject({ code: ErrorCode.Conflict });

    await saveExperienceDraft({ actor: owner.actor, componentId, environment: 'prod', definition: { segments: [aSegment({ arms: [{ variantId: variants[2], weight: 100_000 }] })] } }, deps);
    await publishExperience({ actor: owner.actor, componentId, environment: 'prod', phase: 'new' }, deps);
    await expect(start(owner.actor, 'prod')).rejects.toMatchObject({ code: ErrorCode.Conflict, message: expect.stringMatching(/experience is live/) });

    const other = await anUploadedComponent(deps, objects, owner.actor, { name: 'Unreleased' });
    const next = await anUploadedComponent(deps, objects, owner.actor, { componentId: other.componentId });
    await expect(startRollout({ actor: owner.actor, componentId: other.componentId, environment: 'staging', candidateVariantId: next.variantId }, deps)).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      message: expect.stringMatching(/Nothing is released to staging/),
    });
  });

  it("turns a member's start in a protected environment into a request; approving starts it", async () => {
    const { start, deps, repos, admin, member, variants } = await aTeam();
    const asked = await start(member.actor, 'prod', { stages: [{ weight: 10_000, holdMinutes: 30 }, { weight: 100_000, holdMinutes: 0 }] });
    expect(asked).toMatchObject({ outcome: 'requested', request: { variantId: variants[1], plan: { kind: 'rollout', stages: [{ weight: 10_000 }, { weight: 100_000 }] } } });
    if (asked.outcome !== 'requested') throw new Error(asked.outcome);
    const { applied } = await approveReleaseRequest({ actor: admin.actor, requestId: asked.request.id }, deps);
    expect(applied).toMatchObject({ kind: 'rollout', rollout: { state: 'running', weight: 10_000, startedBy: admin.user.id, candidateVariantId: variants[1] } });
    const row = repos.state.auditEvents.find((e) => e.kind === 'rollout.started')!;
    expect(row).toMatchObject({ actorId: admin.user.id, details: { requestId: asked.request.id, requestedBy: member.user.id } });
  });
});

describe('changing rollouts', () => {
  it('advances, pauses and resumes on the revision read; a stale revision is a conflict', async () => {
    const { started, change } = await aTeam();
    const rollout = await started();
    const advanced = await change('advance', rollout.revision);
    expect(advanced).toMatchObject({ stageIndex: 1, weight: 5_000, revision: 2 });
    await expect(change('pause', rollout.revision)).rejects.toMatchObject({ code: ErrorCode.Conflict });
    expect(await change('pause', 2)).toMatchObject({ state: 'paused', revision: 3 });
    expect(await change('resume', 3)).toMatchObject({ state: 'running', revision: 4 });
    await expect(change('advance', 0)).rejects.toMatchObject({ code: ErrorCode.InvalidInput, details: { field: 'expectedRevision' } });
  });

  it('refuses to advance past the last stage: promote or stop instead', async () => {
    const { started, change } = await aTeam();
    const rollout = await started(undefined, 'staging', { stages: [{ weight: 50_000, holdMinutes: 0 }, { weight: 100_000, holdMinutes: 0 }] });
    const last = await change('advance', rollout.revision);
    await expect(change('advance', last.revision)).rejects.toMatchObject({ code: ErrorCode.InvalidInput, message: expect.stringMatching(/last stage: promote it/) });
  });

  it('lets only owners and admins advance in a protected environment; members pause there', async () => {
    const { started, change, admin, member } = await aTeam();
    const rollout = await started(admin.actor, 'prod');
    await expect(change('advance', rollout.revision, member.actor, 'prod')).rejects.toMatchObject({ code: ErrorCode.EnvironmentProtected });
    expect(await change('pause', rollout.revision, member.actor, 'prod')).toMatchObject({ state: 'paused' });
  });

  it('promotes: the candidate becomes the release and the rollout ends', async () => {
    const { started, deps, repos, owner, componentId, variants } = await aTeam();
    const rollout = await started();
    expect(await promoteRollout({ actor: owner.actor, componentId, environment: 'staging', expectedRevision: rollout.revision }, deps)).toMatchObject({
      outcome: 'promoted',
      rollout: { state: 'promoted' },
    });
    expect(await repos.releases.findCurrent(componentId, rollout.environmentId)).toMatchObject({ variantId: variants[1] });
    expect(await repos.assignments.findLive(componentId, 'staging')).toBeNull();
  });

  it("turns a member's promote in a protected environment into a release request for the candidate", async () => {
    const { started, deps, repos, admin, member, componentId, variants } = await aTeam();
    const rollout = await started(admin.actor, 'prod');
    const asked = await promoteRollout({ actor: member.actor, componentId, environment: 'prod', expectedRevision: rollout.revision }, deps);
    expect(asked).toMatchObject({ outcome: 'requested', request: { variantId: variants[1], plan: { kind: 'release' } } });
    if (asked.outcome !== 'requested') throw new Error(asked.outcome);
    await approveReleaseRequest({ actor: admin.actor, requestId: asked.request.id }, deps);
    expect(await repos.rollouts.findById(rollout.id)).toMatchObject({ state: 'promoted' });
  });
});

describe('stopping rollouts', () => {
  it('stops on the latest revision, retrying when another change lands in between', async () => {
    const { started, deps, repos, owner, componentId } = await aTeam();
    const rollout = await started();
    let raced = 0;
    // Another change (the guard's, a person's) lands between the stop's read and its write.
    const racing: Rollouts = {
      ...repos.rollouts,
      async change(input) {
        if (input.change.kind === 'stop' && raced++ < 2) {
          const latest = (await repos.rollouts.findById(input.rolloutId))!;
          await repos.rollouts.change({ ...input, expectedRevision: latest.revision, change: { kind: latest.state === 'paused' ? 'resume' : 'pause', reason: null } });
        }
        return repos.rollouts.change(input);
      },
    };
    const racingDeps = { ...deps, repos: { ...repos, rollouts: racing } };
    const stopped = await stopRollout({ actor: owner.actor, componentId, environment: 'staging', reason: '  checkout broke  ' }, racingDeps);
    expect(stopped).toMatchObject({ state: 'stopped', weight: 0, reason: 'checkout broke', revision: rollout.revision + 3 });
    expect(raced).toBe(3);
  });

  it('gives up with CONFLICT after three attempts', async () => {
    const { started, deps, repos, owner, componentId } = await aTeam();
    await started();
    const racing: Rollouts = {
      ...repos.rollouts,
      async change(input) {
        const latest = (await repos.rollouts.findById(input.rolloutId))!;
        await repos.rollouts.change({ ...input, expectedRevision: latest.revision, change: { kind: latest.state === 'paused' ? 'resume' : 'pause', reason: null } });
        return repos.rollouts.change(input);
      },
    };
    await expect(stopRollout({ actor: owner.actor, componentId, environment: 'staging' }, { ...deps, repos: { ...repos, rollouts: racing } })).rejects.toMatchObject({
      code: ErrorCode.Conflict,
    });
  });
});

describe('rollout permissions', () => {
  it('refuses a viewer every write with FORBIDDEN: start, change, promote, stop', async () => {
    const { start, started, change, deps, viewer, componentId } = await aTeam();
    await expect(start(viewer.actor)).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    const rollout = await started();
    for (const action of ['advance', 'pause', 'resume'] as const) {
      await expect(change(action, rollout.revision, viewer.actor)).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    }
    const target = { actor: viewer.actor, componentId, environment: 'staging' };
    await expect(promoteRollout({ ...target, expectedRevision: rollout.revision }, deps)).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    await expect(stopRollout(target, deps)).rejects.toMatchObject({ code: ErrorCode.Forbidden });
  });
});
