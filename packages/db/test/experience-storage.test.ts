import { randomUUID } from 'node:crypto';
import { DEFAULT_GUARD_SETTINGS } from '@cp/domain';
import { isUniqueViolation } from '../src/repositories/errors.js';
import { aComponent, anAuditNote, aUserWithOrganization, aVariant } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

// What the schema keeps beside the ports: experiences and rollouts go with their component and
// environment, as releases do.
describeEachBackend('experience and rollout storage', (db) => {
  const aLiveRollout = async () => {
    const { repos } = db();
    const owner = await aUserWithOrganization(repos);
    const component = await aComponent(repos, { organizationId: owner.organization.id, createdBy: owner.user.id });
    const baseline = (await repos.variants.findLatest(component.id))!;
    const candidate = await aVariant(repos, { componentId: component.id, createdBy: owner.user.id });
    const where = { componentId: component.id, environmentId: owner.environments[0]!.id };
    const now = new Date();
    const audit = anAuditNote(owner.user.id);
    await repos.releases.publish({ eventId: randomUUID(), ...where, variantId: baseline.id, releasedBy: owner.user.id, now, audit });
    await repos.experiences.saveDraft({ ...where, definition: { segments: [] }, updatedBy: owner.user.id, now });
    await repos.experiences.publish({ ...where, definition: { segments: [] }, salt: 's', republishedFrom: null, moved: [], publishedBy: owner.user.id, now, audit: anAuditNote(owner.user.id) });
    const rollout = await repos.rollouts.start({
      id: randomUUID(),
      ...where,
      candidateVariantId: candidate.id,
      baselineVariantId: baseline.id,
      salt: 'r',
      stages: [{ weight: 1_000, holdMinutes: 0 }],
      guard: DEFAULT_GUARD_SETTINGS,
      startedBy: owner.user.id,
      now,
      audit: anAuditNote(owner.user.id),
    });
    return { owner, component, rollout };
  };

  const rows = async (componentId: string) => {
    const { prisma } = db();
    return [
      await prisma.experienceDraft.count({ where: { componentId } }),
      await prisma.experienceRevision.count({ where: { componentId } }),
      await prisma.rollout.count({ where: { componentId } }),
    ];
  };

  it('deleting a component takes its drafts, revisions and rollouts along (variant references are checked at statement end)', async () => {
    const { component } = await aLiveRollout();
    expect(await rows(component.id)).toEqual([1, 1, 1]);
    await db().prisma.component.delete({ where: { id: component.id } });
    expect(await rows(component.id)).toEqual([0, 0, 0]);
  });

  it('an environment with only a draft can be removed, and takes the draft along', async () => {
    const { repos } = db();
    const { owner, component } = await aLiveRollout();
    const environment = await repos.environments.create({
      id: randomUUID(),
      organizationId: owner.organization.id,
      name: 'qa',
      protected: false,
      now: new Date(),
      audit: anAuditNote(owner.user.id),
    });
    await repos.experiences.saveDraft({ componentId: component.id, environmentId: environment.id, definition: { segments: [] }, updatedBy: owner.user.id, now: new Date() });
    expect(await repos.environments.remove(environment.id, { now: new Date(), audit: anAuditNote(owner.user.id) })).toBe('removed');
    expect(await repos.experiences.findDraft(component.id, environment.id)).toBeNull();
  });

  it('keeps one live rollout per component environment even for a write that skips the lock', async () => {
    const { rollout } = await aLiveRollout();
    const { prisma } = db();
    const copy = await prisma.rollout.findUniqueOrThrow({ where: { id: rollout.id } });
    const second = prisma.rollout.create({ data: { ...copy, id: randomUUID(), stages: copy.stages!, guard: copy.guard! } });
    const error: unknown = await second.then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(error, ['component_id', 'environment_id'])).toBe(true);
  });
});
