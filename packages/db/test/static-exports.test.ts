import { randomUUID } from 'node:crypto';
import { AuditKind, type Component, type Variant } from '@cp/domain';
import {
  aComponent,
  aMemberOf,
  anAuditNote,
  aUserWithOrganization,
  type Owner,
} from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

/*
 * StaticExports and the export jobs the repositories enqueue: in the change's own transaction,
 * only for an organization that opted in, never for a refused change; the switch's audit rows
 * stay a consistent chain under 40 parallel switches.
 */
describeEachBackend('static exports', (db) => {
  let owner: Owner;
  let component: Component;
  let v1: Variant;
  const env = (name: string) => owner.environments.find((e) => e.name === name)!;
  const jobs = async (organizationId: string) =>
    (
      await db().prisma.$queryRawUnsafe<{ data: { organizationId: string; full?: boolean } }[]>(
        `SELECT data FROM jobs.job WHERE name = 'static-export' AND data->>'organizationId' = $1 ORDER BY created_on, id`,
        organizationId,
      )
    ).map((row) => row.data);
  const publish = (releasedBy: string, environment: string, enforceProtection = false) =>
    db().repos.releases.publish({
      eventId: randomUUID(),
      componentId: component.id,
      environmentId: env(environment).id,
      variantId: v1.id,
      releasedBy,
      now: new Date(),
      enforceProtection,
      audit: { eventId: randomUUID(), actorId: releasedBy },
    });
  const switchTo = (enabled: boolean, organizationId = owner.organization.id) =>
    db().repos.staticExports.setEnabled({
      organizationId,
      enabled,
      now: new Date(),
      audit: { eventId: randomUUID(), actorId: owner.user.id },
    });

  beforeEach(async () => {
    owner = await aUserWithOrganization(db().repos);
    component = await aComponent(db().repos, {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    v1 = (await db().repos.variants.findLatest(component.id))!;
  });

  it('off by default: a release enqueues nothing', async () => {
    expect(await db().repos.staticExports.find(owner.organization.id)).toMatchObject({
      enabled: false,
      changedAt: null,
      exportedAt: null,
    });
    await publish(owner.user.id, 'staging');
    expect(await jobs(owner.organization.id)).toEqual([]);
  });

  it('on: a full export job and an audit row with the switch; each release then enqueues a job; a refused release none', async () => {
    const on = await switchTo(true);
    expect(on).toMatchObject({ enabled: true, lastError: null });
    expect(await jobs(owner.organization.id)).toEqual([
      { organizationId: owner.organization.id, full: true },
    ]);

    await publish(owner.user.id, 'staging');
    expect((await jobs(owner.organization.id)).at(-1)).toEqual({
      organizationId: owner.organization.id,
    });

    await db().repos.environments.setProtected(env('prod').id, true, {
      now: new Date(),
      audit: anAuditNote(),
    });
    const member = await aMemberOf(db(), owner.organization.id, 'member');
    expect(await errorCode(publish(member.id, 'prod', true))).toBe('ENVIRONMENT_PROTECTED');
    expect(await jobs(owner.organization.id)).toHaveLength(2);

    const renamed = await db().repos.environments.rename(env('staging').id, 'qa', {
      now: new Date(),
      audit: anAuditNote(),
    });
    expect(renamed).toMatchObject({ name: 'qa' });
    expect(await jobs(owner.organization.id)).toHaveLength(3);
  });

  it('recordRun keeps the last error until a success clears it; listReleased names every current release', async () => {
    await switchTo(true);
    await publish(owner.user.id, 'staging');
    await publish(owner.user.id, 'prod');
    const failedAt = new Date('2026-03-01T10:00:00.000Z');
    await db().repos.staticExports.recordRun(owner.organization.id, {
      at: failedAt,
      error: 'bucket missing',
    });
    expect(await db().repos.staticExports.find(owner.organization.id)).toMatchObject({
      lastError: 'bucket missing',
      lastErrorAt: failedAt,
      exportedAt: null,
    });
    const doneAt = new Date('2026-03-01T10:05:00.000Z');
    await db().repos.staticExports.recordRun(owner.organization.id, { at: doneAt, error: null });
    expect(await db().repos.staticExports.find(owner.organization.id)).toMatchObject({
      lastError: null,
      lastErrorAt: null,
      exportedAt: doneAt,
    });

    const released = await db().repos.staticExports.listReleased(owner.organization.id);
    expect(released.map((r) => [r.component.id, r.environmentName, r.variant.id])).toEqual([
      [component.id, 'prod', v1.id],
      [component.id, 'staging', v1.id],
    ]);
    expect(released[0]!.component).toEqual({
      id: component.id,
      name: component.name,
      organizationId: owner.organization.id,
    });
    expect(await db().repos.staticExports.listReleased(randomUUID())).toEqual([]);
  });

  it('40 parallel switches: every change audited once, as a chain of before/after, ending on the stored state', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => switchTo(i % 2 === 0)));
    expect(results.every((r) => r !== null)).toBe(true);
    const rows = await db().repos.auditTrail.list(owner.organization.id, {
      limit: 100,
      kinds: [AuditKind.StaticExportChanged],
    });
    const chain = rows.reverse().map((row) => row.details as { before: boolean; after: boolean });
    expect(chain.length).toBeGreaterThan(0);
    let state = false;
    for (const link of chain) {
      expect(link).toEqual({ before: state, after: !state });
      state = link.after;
    }
    expect((await db().repos.staticExports.find(owner.organization.id)).enabled).toBe(state);
    // One job per switch that was on, or turned it off.
    const enabledCalls = 20;
    const turnedOff = chain.filter((link) => !link.after).length;
    expect(await jobs(owner.organization.id)).toHaveLength(enabledCalls + turnedOff);
  });

  it('an unknown organization: null, nothing written', async () => {
    expect(await switchTo(true, randomUUID())).toBeNull();
    expect(await switchTo(true, 'not-a-uuid')).toBeNull();
  });
});
