import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../src/errors/domain-error.js';
import { approveReleaseRequest } from '../src/use-cases/release-requests/approve-release-request.js';
import { publishExperience } from '../src/use-cases/experiences/publish-experience.js';
import { saveExperienceDraft } from '../src/use-cases/experiences/save-experience-draft.js';
import { startRollout } from '../src/use-cases/rollouts/start-rollout.js';
import type { ExperienceDefinition } from '../src/entities/experience.js';
import { aRule, aSegment, aSplit, aTeamWithAReleasedComponent } from './experience-builders.js';

async function aTeam() {
  const team = await aTeamWithAReleasedComponent();
  const { deps, owner, componentId } = team;
  const draft = (definition: ExperienceDefinition, actor = owner.actor, environment = 'staging') =>
    saveExperienceDraft({ actor, componentId, environment, definition }, deps);
  const publish = (input: { phase: 'keep' | 'new'; revision?: number; expectedLive?: number | null }, actor = owner.actor, environment = 'staging') =>
    publishExperience({ actor, componentId, environment, ...input }, deps);
  const published = async (...args: Parameters<typeof publish>) => {
    const outcome = await publish(...args);
    if (outcome.outcome !== 'published') throw new Error(`expected a publish, got request ${outcome.request.id}`);
    return outcome;
  };
  return { ...team, draft, publish, published };
}

describe('publishing experiences', () => {
  it('keeps the salt and reports the users who move, or draws a new one; each publish is a new revision', async () => {
    const { draft, published, variants: [v1, v2], repos, componentId } = await aTeam();
    await draft(aSplit(v1, v2, 50_000));
    const first = await published({ phase: 'keep' });
    expect(first).toMatchObject({ revision: { number: 1, environmentName: 'staging', republishedFrom: null }, moved: [] });
    expect(first.revision.salt).toMatch(/^[0-9a-f]{16}$/);

    await draft(aSplit(v1, v2, 60_000));
    const kept = await published({ phase: 'keep' });
    expect(kept).toMatchObject({ revision: { number: 2, salt: first.revision.salt }, moved: [{ segment: 'everyone', moved: 10_000 }] });

    const fresh = await published({ phase: 'new' });
    expect(fresh.revision.number).toBe(3);
    expect(fresh.revision.salt).not.toBe(first.revision.salt);
    expect(fresh.moved).toEqual([]);

    const audit = repos.state.auditEvents.filter((e) => e.kind === 'experience.published');
    expect(audit.map((e) => [e.details['revision'], e.details['saltKept'], e.details['moved']])).toEqual([
      [1, false, []],
      [2, true, [{ segment: 'everyone', moved: 10_000 }]],
      [3, false, []],
    ]);
    expect(await repos.assignments.findLive(componentId, 'staging')).toMatchObject({
      kind: 'experience',
      segments: [{ salt: fresh.revision.salt, arms: [{ arm: 'v1', upTo: 60_000 }, { arm: 'v2', upTo: 100_000 }] }],
    });
  });

  it('re-publishes an earlier revision as a new one with its content', async () => {
    const { draft, published, variants: [v1, v2, v3] } = await aTeam();
    await draft(aSplit(v1, v2));
    await published({ phase: 'keep' });
    await draft(aSplit(v1, v3));
    await published({ phase: 'keep' });
    const again = await published({ phase: 'keep', revision: 1 });
    expect(again).toMatchObject({ revision: { number: 3, republishedFrom: 1, definition: aSplit(v1, v2) }, moved: [{ segment: 'everyone', moved: 50_000 }] });
  });

  it('refuses a missing draft or revision, a stale expectedLive, a variant of another component, and a live rollout', async () => {
    const { draft, publish, published, deps, owner, componentId, variants: [v1, v2] } = await aTeam();
    await expect(publish({ phase: 'keep' })).rejects.toMatchObject({ code: ErrorCode.NotFound, details: { resource: 'ExperienceDraft' } });
    await expect(draft(aSplit(v1, randomUUID()))).rejects.toMatchObject({ code: ErrorCode.InvalidInput, details: { field: 'segments[0].arms[1].variantId' } });
    await draft(aSplit(v1, v2));
    await expect(publish({ phase: 'keep', revision: 4 })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(publish({ phase: 'keep', expectedLive: 1 })).rejects.toMatchObject({ code: ErrorCode.Conflict });
    await published({ phase: 'keep', expectedLive: null });
    await published({ phase: 'keep', expectedLive: 1 });
    await draft({ segments: [] });
    await published({ phase: 'new' });
    await startRollout({ actor: owner.actor, componentId, environment: 'staging', candidateVariantId: v2 }, deps);
    await expect(publish({ phase: 'new' })).rejects.toMatchObject({ code: ErrorCode.Conflict });
  });

  it('publishing no segments turns the experience off', async () => {
    const { draft, published, repos, componentId, variants: [, v2] } = await aTeam();
    await draft({ segments: [aSegment({ rules: [aRule('country', 'in', 'DE', 'AT')], arms: [{ variantId: v2, weight: 100_000 }] })] });
    await published({ phase: 'new' });
    expect(await repos.assignments.findLive(componentId, 'staging')).toMatchObject({ kind: 'experience' });
    await draft({ segments: [] });
    await published({ phase: 'new' });
    expect(await repos.assignments.findLive(componentId, 'staging')).toBeNull();
  });

  it("turns a member's publish to a protected environment into a request; approving it publishes, by the approver", async () => {
    const { draft, published, publish, deps, repos, owner, member, admin, componentId, variants: [v1, v2] } = await aTeam();
    const prod = (await repos.environments.findByName(owner.organizationId, 'prod'))!;
    await draft(aSplit(v1, v2, 50_000), member.actor, 'prod');
    await published({ phase: 'keep' }, admin.actor, 'prod');
    await draft(aSplit(v1, v2, 70_000), member.actor, 'prod');
    const asked = await publish({ phase: 'keep' }, member.actor, 'prod');
    expect(asked).toMatchObject({
      outcome: 'requested',
      created: true,
      request: { variantId: v1, plan: { kind: 'experience', definition: aSplit(v1, v2, 70_000), phase: 'keep', republishedFrom: null } },
    });
    if (asked.outcome !== 'requested') throw new Error(asked.outcome);
    expect((await repos.experiences.findLive(componentId, prod.id))?.number).toBe(1);

    const { request, applied } = await approveReleaseRequest({ actor: admin.actor, requestId: asked.request.id }, deps);
    expect(request).toMatchObject({ state: 'approved', decidedBy: admin.user.id, releaseEventId: null });
    expect(applied).toMatchObject({ kind: 'experience', revision: { number: 2, publishedBy: admin.user.id, definition: aSplit(v1, v2, 70_000) } });
    const row = repos.state.auditEvents.filter((e) => e.kind === 'experience.published').at(-1)!;
    expect(row).toMatchObject({ actorId: admin.user.id, details: { revision: 2, saltKept: true, moved: [{ segment: 'everyone', moved: 20_000 }], requestId: request.id, requestedBy: member.user.id } });
  });

  it('refuses a viewer every write with FORBIDDEN', async () => {
    const { draft, publish, viewer, variants: [v1, v2] } = await aTeam();
    await expect(draft(aSplit(v1, v2), viewer.actor)).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    await draft(aSplit(v1, v2));
    await expect(publish({ phase: 'keep' }, viewer.actor)).rejects.toMatchObject({ code: ErrorCode.Forbidden });
  });
});
