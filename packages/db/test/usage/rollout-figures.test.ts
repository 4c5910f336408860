import { randomUUID } from 'node:crypto';
import type { UsageEvent } from '@cp/domain';
import { aComponent, aUsageEvent, aUserWithOrganization, aVariant, usageEvents } from '../../src/testing/index.js';
import { createRolloutFigures, createUsageWriter, ROLLOUT_SESSIONS_SQL } from '../../src/usage/index.js';
import { describeEachBackend } from '../support/backends.js';

const at = (iso: string): Date => new Date(iso);
const uncaught = { type: 'error', name: 'uncaught', value: null, error: { errorClass: 'TypeError', message: 'x', stackHash: '0a1b2c3d' } } as const;

describeEachBackend('rollout figures', (db) => {
  const sql = () => db().database.sql;

  async function aComponentWithTwoVariants() {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const component = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id });
    const release = (await db().repos.variants.findLatest(component.id))!.id;
    const candidate = (await aVariant(db().repos, { componentId: component.id, createdBy: user.id })).id;
    return { componentId: component.id, release, candidate };
  }

  it('counts distinct sessions with a load or render per variant, and those of them with an error, in [from, to)', async () => {
    const { componentId, release, candidate } = await aComponentWithTwoVariants();
    const { componentId: otherComponent, release: otherVariant } = await aComponentWithTwoVariants();
    const event = (sessionId: string, variantId: string, iso: string, over: Partial<UsageEvent> = {}) =>
      aUsageEvent({ componentId, variantId, sessionId, at: at(iso), environment: 'prod', ...over });
    await createUsageWriter(sql()).append([
      // Candidate: s1 renders twice and errs twice (one session, one error session); s2 loads and renders; s3 renders.
      ...usageEvents(2, event('s1', candidate, '2031-06-01T10:00:00Z')),
      ...usageEvents(2, event('s1', candidate, '2031-06-01T10:00:05Z', uncaught)),
      event('s2', candidate, '2031-06-01T10:01:00Z', { type: 'load', name: 'consume' }),
      event('s2', candidate, '2031-06-01T10:01:01Z'),
      event('s3', candidate, '2031-06-01T10:59:59.999Z'),
      // An error without a load or render in the range is no session; neither are interactions alone.
      event('s4', candidate, '2031-06-01T10:30:00Z', uncaught),
      event('s5', candidate, '2031-06-01T10:30:00Z', { type: 'interaction', name: 'click', value: null }),
      // Release: the same session id is another session of another variant; s6 errs.
      event('s1', release, '2031-06-01T10:02:00Z'),
      event('s6', release, '2031-06-01T10:03:00Z'),
      event('s6', release, '2031-06-01T10:03:30Z', uncaught),
      // Outside: before `from`, at `to`, another environment, another component.
      event('s7', candidate, '2031-06-01T09:59:59.999Z'),
      event('s8', candidate, '2031-06-01T11:00:00Z'),
      event('s9', candidate, '2031-06-01T10:10:00Z', { environment: 'staging' }),
      aUsageEvent({ componentId: otherComponent, variantId: otherVariant, sessionId: 's10', at: at('2031-06-01T10:10:00Z'), environment: 'prod' }),
    ]);
    const figures = await createRolloutFigures(sql()).sessions({
      componentId,
      environment: 'prod',
      variantIds: [candidate, release, randomUUID()],
      from: at('2031-06-01T10:00:00Z'),
      to: at('2031-06-01T11:00:00Z'),
    });
    expect([...figures.values()]).toEqual([
      { sessions: 3, errorSessions: 1 },
      { sessions: 2, errorSessions: 1 },
      { sessions: 0, errorSessions: 0 },
    ]);
  });

  it("reads only the component's rows of the day partitions the range overlaps, through the index (EXPLAIN)", async () => {
    const { componentId, candidate } = await aComponentWithTwoVariants();
    const { componentId: busy, release: busyVariant } = await aComponentWithTwoVariants();
    const writer = createUsageWriter(sql());
    await writer.append([aUsageEvent({ componentId, variantId: candidate, at: at('2031-06-03T10:00:00Z'), environment: 'prod' })]);
    // Another component's traffic fills the day, so reading it all would cost far more than the index.
    await sql().rows({
      text: `INSERT INTO "usage"."events" ("at", "component_id", "environment", "variant_id", "type", "name", "value", "cache_hit", "isolation",
               "sdk_version", "host_name", "session_id", "sequence", "sample_rate", "browser")
             SELECT $1::timestamptz + (i || ' seconds')::interval, $2, 'prod', $3, 'render', 'ready', 12, NULL, 'iframe', '1.1.0', 'shop.example', 's' || i, 0, 1, 'chrome'
             FROM generate_series(1, 20000) AS i`,
      values: [at('2031-06-03T00:00:00Z'), busy, busyVariant],
    });
    await sql().rows({ text: 'ANALYZE "usage"."events"', values: [] });
    const [row] = await sql().rows<Record<string, unknown>>({
      text: `EXPLAIN (FORMAT JSON) ${ROLLOUT_SESSIONS_SQL}`,
      values: [componentId, 'prod', at('2031-06-03T09:00:00Z'), at('2031-06-03T11:00:00Z'), [candidate]],
    });
    const scans: { relation: string; index: string | undefined }[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const fields = node as Record<string, unknown>;
        if (typeof fields['Relation Name'] === 'string') scans.push({ relation: fields['Relation Name'], index: fields['Index Name'] as string | undefined });
        Object.values(fields).forEach(walk);
      }
    };
    const plan = row!['QUERY PLAN'];
    walk(typeof plan === 'string' ? JSON.parse(plan) : plan);
    expect(scans).toEqual([{ relation: 'events_20310603', index: expect.stringMatching(/^events_20310603_component_id_environment_at_idx/) }]);
  });
});
