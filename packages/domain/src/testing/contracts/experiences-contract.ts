/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import {
  OFF,
  aSplit,
  anExperienceTeam,
  codeOf,
  everyone,
  note,
  type ExperiencesSubject,
} from './experience-team.js';

/** Experiences and Assignments (experiences), for every implementation: drafts, numbered immutable revisions, one of an experience or a rollout. */
export function experiencesContract(subject: () => ExperiencesSubject): void {
  const team = () => anExperienceTeam(subject());

  it('keeps one draft per component environment: saving again replaces it', async () => {
    const { repos, componentId, ids, owner, member, v2, v3, now } = await team();
    expect(await repos.experiences.findDraft(componentId, ids.staging)).toBeNull();
    const save = (definition: ReturnType<typeof everyone>, by: string) =>
      repos.experiences.saveDraft({
        componentId,
        environmentId: ids.staging,
        definition,
        updatedBy: by,
        now: now(),
      });
    const first = await save(everyone(v2), owner);
    expect(first).toMatchObject({
      componentId,
      environmentId: ids.staging,
      definition: everyone(v2),
      updatedBy: owner,
    });
    const second = await save(aSplit(v2, v3), member);
    expect(await repos.experiences.findDraft(componentId, ids.staging)).toEqual(second);
    expect(second).toMatchObject({ definition: aSplit(v2, v3), updatedBy: member });
    expect(await repos.experiences.findDraft(componentId, ids.prod)).toBeNull();
    expect(await repos.experiences.findDraft('not-a-uuid', ids.staging)).toBeNull();
    // Drafts are not audited.
    expect(
      (await subject().auditOf(componentId)).filter((row) => row.kind.startsWith('experience.')),
    ).toEqual([]);
  });

  it('numbers revisions per environment, keeps them as published, and re-publishes an earlier one as a new revision', async () => {
    const { repos, componentId, ids, owner, organizationId, v2, v3, publish } = await team();
    expect(await repos.experiences.findLive(componentId, ids.staging)).toBeNull();
    const first = await publish(everyone(v2), { salt: 'salt-one' });
    expect(first).toMatchObject({
      componentId,
      environmentId: ids.staging,
      environmentName: 'staging',
      number: 1,
      salt: 'salt-one',
      republishedFrom: null,
      publishedBy: owner,
    });
    const second = await publish(aSplit(v2, v3), { salt: 'salt-one' });
    expect(second.number).toBe(2);
    expect((await publish(everyone(v3), { environmentId: ids.prod })).number).toBe(1);
    const third = await publish(first.definition, { salt: 'salt-three', republishedFrom: 1 });
    expect(third).toMatchObject({ number: 3, definition: everyone(v2), republishedFrom: 1 });
    expect(await repos.experiences.findRevision(componentId, ids.staging, 1)).toEqual(first);
    expect(await repos.experiences.findRevision(componentId, ids.staging, 9)).toBeNull();
    expect(await repos.experiences.findLive(componentId, ids.staging)).toEqual(third);
    expect(await repos.experiences.listRevisions(componentId, ids.staging, 2)).toEqual([
      third,
      second,
    ]);
    const audit = (await subject().auditOf(componentId)).filter(
      (row) => row.kind === 'experience.published',
    );
    expect(
      audit.map((row) => [row.actorId, row.details.environment, row.details.revision]),
    ).toEqual([
      [owner, 'staging', 1],
      [owner, 'staging', 2],
      [owner, 'prod', 1],
      [owner, 'staging', 3],
    ]);
    expect(audit[1]!.details).toMatchObject({
      saltKept: true,
      moved: [],
      republishedFrom: null,
      segments: 1,
    });
    expect(audit[3]!.details).toMatchObject({ saltKept: false, republishedFrom: 1 });
    const events = (await subject().webhookEventsOf(organizationId)).filter(
      (e) => e.type === 'experience.published',
    );
    expect(events).toHaveLength(4);
    expect(events[0]!.data).toMatchObject({
      environment: { id: ids.staging, name: 'staging' },
      revision: 1,
    });
  });

  it('refuses a publish whose expectedLive is not the live revision; of parallel publishes expecting the same, one wins', async () => {
    const { repos, componentId, ids, v2, v3, publish } = await team();
    await expect(publish(everyone(v2), { expectedLive: 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await publish(everyone(v2), { expectedLive: null })).number).toBe(1);
    expect(await codeOf(publish(everyone(v3), { expectedLive: null }))).toBe('CONFLICT');
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => publish(aSplit(v2, v3), { expectedLive: 1 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT' });
    expect(
      (await repos.experiences.listRevisions(componentId, ids.staging, 10)).map((r) => r.number),
    ).toEqual([2, 1]);
  });

  it('an environment has an experience or a rollout, not both', async () => {
    const { repos, componentId, ids, v2, v3, publish, start, change } = await team();
    const rollout = await start();
    expect(await codeOf(publish(everyone(v3)))).toBe('CONFLICT');
    // Another environment is another place.
    expect((await publish(everyone(v3), { environmentId: ids.prod })).number).toBe(1);
    await change(rollout.id, rollout.revision, { kind: 'stop', reason: 'enough' });
    await publish(aSplit(v2, v3));
    expect(await codeOf(start())).toBe('CONFLICT');
    expect(await repos.rollouts.findLive(componentId, ids.staging)).toBeNull();
    // An experience without segments is off: a rollout may start.
    await publish(OFF);
    expect((await start()).state).toBe('running');
  });

  it('answers the live experience as buckets with arms named for their variants, and null when off or unknown', async () => {
    const { repos, componentId, v2, v3, publish } = await team();
    expect(await repos.assignments.findLive(componentId, 'staging')).toBeNull();
    await publish(everyone(v2));
    const single = await repos.assignments.findLive(componentId, 'staging');
    const split = await publish(aSplit(v2, v3), { salt: 'split-salt' });
    const live = await repos.assignments.findLive(componentId, 'staging');
    expect(live).toEqual({
      kind: 'experience',
      revision: live!.revision,
      segments: [
        {
          rules: split.definition.segments[0]!.rules,
          salt: 'split-salt',
          arms: [
            { arm: 'v2', variantId: v2, upTo: 50_000 },
            { arm: 'v3', variantId: v3, upTo: 100_000 },
          ],
        },
      ],
    });
    expect(live!.revision).toBeGreaterThan(single!.revision);
    expect(await repos.assignments.findLive(componentId, 'prod')).toBeNull();
    expect(await repos.assignments.findLive(componentId, 'nowhere')).toBeNull();
    expect(await repos.assignments.findLive(randomUUID(), 'staging')).toBeNull();
    await publish(OFF);
    expect(await repos.assignments.findLive(componentId, 'staging')).toBeNull();
  });

  it("approving a member's experience request publishes it, by the approver, keeping the live salt when the plan says so", async () => {
    const { repos, componentId, ids, owner, member, v1, v2, v3, now, publish } = await team();
    const live = await publish(everyone(v2), { environmentId: ids.prod, salt: 'prod-salt' });
    const { request } = await repos.releaseRequests.create({
      id: randomUUID(),
      componentId,
      environmentId: ids.prod,
      variantId: v1,
      plan: {
        kind: 'experience',
        definition: aSplit(v2, v3),
        phase: 'keep',
        republishedFrom: null,
      },
      requestedBy: member,
      now: now(),
      audit: note(member),
    });
    expect(request.plan).toEqual({
      kind: 'experience',
      definition: aSplit(v2, v3),
      phase: 'keep',
      republishedFrom: null,
    });
    const moved = [{ segment: 'germany', moved: 50_000 }];
    const approved = await repos.releaseRequests.approve({
      requestId: request.id,
      approvedBy: owner,
      eventId: randomUUID(),
      now: now(),
      audit: note(owner),
      publishAuditId: randomUUID(),
      salt: 'fresh-salt',
      rolloutId: randomUUID(),
      moved,
    });
    if (approved.outcome !== 'approved' || approved.applied.kind !== 'experience')
      throw new Error(approved.outcome);
    expect(approved.applied.revision).toMatchObject({
      number: live.number + 1,
      salt: 'prod-salt',
      publishedBy: owner,
      definition: aSplit(v2, v3),
    });
    expect(approved.request).toMatchObject({
      state: 'approved',
      decidedBy: owner,
      releaseEventId: null,
    });
    expect((await repos.releases.findCurrent(componentId, ids.prod))?.variantId).toBe(v1);
    const audit = await subject().auditOf(componentId);
    const published = audit.filter((row) => row.kind === 'experience.published').at(-1)!;
    expect(published).toMatchObject({
      actorId: owner,
      details: { requestId: request.id, requestedBy: member, moved, saltKept: true },
    });
    expect(audit.at(-1)!.kind).toBe('release.approved');
    // The request's rows say what it asked for.
    expect(audit.find((row) => row.kind === 'release.requested')?.details.plan).toBe('experience');
  });
}
