import {
  assign,
  changeRollout,
  EXPERIENCE_LIMITS,
  publishExperience,
  saveExperienceDraft,
  startRollout,
  stopRollout,
  type ExperienceDefinition,
  type LiveAssignment,
} from '@cp/domain';
import { get } from './support/http-client.js';
import { aUser, publish, SMALL_PAGE, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * /consume while an experience or a rollout is live (docs/experiences.md "Delivery"), over real
 * HTTP against the real app and database: experiences and rollouts are made with the domain's use
 * cases, and the database triggers announce each change to the instance.
 */

let stack: TestStack;
let delivery: Instance;
let actor: { userId: string };
let componentId: string;
let release: string;
let v2: string;
let v3: string;
const manual = { flushIntervalMs: 0, servedFlushIntervalMs: 0 };

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack, { config: { usage: manual } });
  ({ actor } = await aUser(stack.domain));
  ({ componentId, variantId: release } = await upload(stack.domain, actor, { name: 'Card' }));
  await publish(stack.domain, actor, componentId, 'prod');
  v2 = (await upload(stack.domain, actor, { componentId, html: SMALL_PAGE.replace('Hello', 'Hi v2') })).variantId;
  v3 = (await upload(stack.domain, actor, { componentId, html: SMALL_PAGE.replace('Hello', 'Hi v3') })).variantId;
});

afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const consume = (query: string, headers: Record<string, string> = {}) => get(delivery.url, `/consume?id=${componentId}&env=prod${query}`, headers);
const target = () => ({ actor, componentId, environment: 'prod' });

/** What is live now, as the delivery API reads it, once the instance serves it. */
async function served(): Promise<LiveAssignment | null> {
  const live = await stack.repos.assignments.findLive(componentId, 'prod');
  const since = Date.now();
  while ((await consume('')).json().assignment?.revision !== live?.revision) {
    if (Date.now() - since > 2000) throw new Error(`revision ${live?.revision} not served after 2 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return live;
}

async function publishDefinition(definition: ExperienceDefinition): Promise<LiveAssignment | null> {
  await saveExperienceDraft({ ...target(), definition }, stack.domain);
  await publishExperience({ ...target(), phase: 'new' }, stack.domain);
  return served();
}

/** Country DE gets v3; plan pro is split between v2 (30%) and v1, the release (70%); anyone else gets the release. */
const experience = (): ExperienceDefinition => ({
  segments: [
    { name: 'germany', rules: [{ attribute: 'country', operator: 'equals', values: ['DE'] }], arms: [{ variantId: v3, weight: 100_000 }] },
    {
      name: 'pro',
      rules: [{ attribute: 'plan', operator: 'in', values: ['pro'] }],
      arms: [
        { variantId: v2, weight: 30_000 },
        { variantId: release, weight: 70_000 },
      ],
    },
  ],
});

const variantOf = (res: { json(): { item: { consume_variant: { id: string }[] } } }) => res.json().item.consume_variant[0]!.id;
const ASSIGNED_VARY = 'Accept-Encoding, Cp-Key, Cp-Attributes';

describe('without a live assignment', () => {
  it('answers as always: no descriptor, Vary Accept-Encoding, no Cp-Arm; arm and keyed requests get the same fallback', async () => {
    const fallback = await consume('');
    expect(fallback.json().assignment).toBeUndefined();
    expect(fallback.header('vary')).toBe('Accept-Encoding');
    expect(fallback.header('cp-arm')).toBeUndefined();
    for (const res of [await consume('&arm=v2&rev=1'), await consume('&key=user-1'), await consume('', { 'Cp-Key': 'user-1' })]) {
      expect(res.status).toBe(200);
      expect(res.header('etag')).toBe(fallback.header('etag'));
      expect(res.header('cache-control')).toBe(fallback.header('cache-control'));
      expect(res.header('cp-arm')).toBeUndefined();
    }
  });
});

describe('with a live experience', () => {
  let mapping: LiveAssignment;
  let rev: number;
  beforeAll(async () => {
    mapping = (await publishDefinition(experience()))!;
    rev = mapping.revision;
  });
  afterAll(() => publishDefinition({ segments: [] }));

  it('the fallback carries the descriptor: buckets and arm names, no variant ids', async () => {
    const res = await consume('');
    expect(variantOf(res)).toBe(release);
    const salt = mapping.segments[0]!.salt;
    expect(res.json().assignment).toEqual({
      revision: rev,
      kind: 'experience',
      arm: 'release',
      segments: [
        { rules: [{ attribute: 'country', operator: 'equals', values: ['DE'] }], salt, arms: [{ arm: 'v3', upTo: 100_000 }] },
        { rules: [{ attribute: 'plan', operator: 'in', values: ['pro'] }], salt, arms: [{ arm: 'v2', upTo: 30_000 }, { arm: 'v1', upTo: 100_000 }] },
      ],
    });
    expect(res.header('cache-control')).toMatch(/^public, max-age=/);
    expect(res.header('vary')).toBe(ASSIGNED_VARY);
    expect(res.header('cp-arm')).toBe('release');
    expect(res.header('access-control-expose-headers')).toMatch(/Cp-Arm/);
  });

  it('an arm: its variant with the same descriptor, public, the same Vary, its own ETag and 304', async () => {
    const fallback = await consume('');
    const res = await consume(`&arm=v2&rev=${rev}`);
    expect(res.status).toBe(200);
    expect(variantOf(res)).toBe(v2);
    expect(res.json().assignment).toEqual({ ...fallback.json().assignment, arm: 'v2' });
    expect(res.header('cp-arm')).toBe('v2');
    expect(res.header('cache-control')).toBe(fallback.header('cache-control'));
    expect(res.header('vary')).toBe(ASSIGNED_VARY);
    expect(res.header('etag')).not.toBe(fallback.header('etag'));
    const again = await consume(`&arm=v2&rev=${rev}`, { 'If-None-Match': res.header('etag')! });
    expect(again.status).toBe(304);
    expect(again.header('vary')).toBe(ASSIGNED_VARY);
    expect(again.header('cp-arm')).toBe('v2');
  });

  it('a stale rev or an arm the mapping does not have: the current mapping', async () => {
    expect((await consume(`&arm=v3&rev=${rev - 1}`)).json().assignment).toMatchObject({ revision: rev, arm: 'v3' });
    for (const query of [`&arm=v9&rev=${rev}`, `&arm=release&rev=${rev}`]) {
      const res = await consume(query);
      expect(variantOf(res)).toBe(release);
      expect(res.json().assignment).toMatchObject({ revision: rev, arm: 'release' });
      expect(res.header('cp-arm')).toBe('release');
    }
  });

  it('keyed requests: the arm the domain assigns, private, by query or by headers', async () => {
    const arms = { v1: release, v2, v3, release } as Record<string, string>;
    const seen = new Set<string>();
    // The salt is drawn at publish: keys are taken until every arm has been asked for.
    for (let i = 0; i < 12 || seen.size < 4; i += 1) {
      expect(i).toBeLessThan(200);
      const key = `user-${i}`;
      const attributes: Record<string, string> = [{ country: 'DE', plan: 'pro' }, {}, { plan: 'pro' }, { plan: 'pro', device: 'phone' }][i % 4]!;
      const expected = assign(mapping.segments, key, attributes)?.arm ?? 'release';
      seen.add(expected);
      const query = new URLSearchParams({ key, ...Object.fromEntries(Object.entries(attributes).map(([name, value]) => [`attr.${name}`, value])) });
      const byQuery = await consume(`&${query}`);
      const headers: Record<string, string> = { 'Cp-Key': key };
      if (Object.keys(attributes).length > 0) headers['Cp-Attributes'] = new URLSearchParams(attributes).toString();
      const byHeaders = await consume('', headers);
      for (const res of [byQuery, byHeaders]) {
        expect(res.status).toBe(200);
        expect(res.header('cp-arm')).toBe(expected);
        expect(variantOf(res)).toBe(arms[expected]);
        expect(res.header('cache-control')).toMatch(/^private, max-age=\d+$/);
        expect(res.header('vary')).toBe(ASSIGNED_VARY);
      }
    }
    expect(seen).toEqual(new Set(['v1', 'v2', 'v3', 'release']));
    // No key: a split gives the fallback, a segment of one variant needs none.
    expect((await consume('&attr.plan=pro')).header('cp-arm')).toBe('release');
    expect((await consume('&attr.country=DE')).header('cp-arm')).toBe('v3');
  });

  it('counts the arm served as its variant', async () => {
    await delivery.app.usage.flush();
    const count = async (variantId: string) =>
      (
        await stack.sql.rows<{ n: number }>({
          text: `SELECT coalesce(sum("count"), 0)::int AS n FROM "usage"."minutes" WHERE "component_id" = $1 AND "variant_id" = $2 AND "type" = 'served'`,
          values: [componentId, variantId],
        })
      )[0]!.n;
    const before = await count(v2);
    await consume(`&arm=v2&rev=${rev}`);
    await delivery.app.usage.flush();
    expect(await count(v2)).toBe(before + 1);
  });

  it.each([
    ['an unknown arm form', '&arm=v2x', /arm must be "release" or a variant name/],
    ['a rev that is not a number', '&arm=v2&rev=latest', /rev must be the `revision` number/],
    ['an arm with a key', '&arm=v2&key=user-1', /either arm .* or key and attr/],
    ['a key too long', `&key=${'k'.repeat(EXPERIENCE_LIMITS.keyLength + 1)}`, /key must be 1 to 256 characters/],
    ['an empty key', '&key=', /key must be 1 to 256 characters/],
    ['two keys', '&key=a&key=b', /"key" was given more than once/],
    ['a bad attribute name', '&attr.1x=a', /Parameter "attr\.1x": an attribute name/],
    ['a value too long', `&attr.plan=${'p'.repeat(EXPERIENCE_LIMITS.valueLength + 1)}`, /Parameter "attr\.plan" is 129 characters long/],
    ['too many attributes', Array.from({ length: 21 }, (_, i) => `&attr.a${i}=x`).join(''), /names 21 attributes; at most 20/],
  ])('%s: 400 naming the parameter', async (_case, query, message) => {
    const res = await consume(query);
    expect(res.status).toBe(400);
    expect(res.json().detail).toMatch(message);
  });

  it.each([
    ['a key too long', { 'Cp-Key': 'k'.repeat(EXPERIENCE_LIMITS.keyLength + 1) }, /Header Cp-Key must be 1 to 256/],
    ['a bad attribute name', { 'Cp-Attributes': 'country=DE&9=x' }, /Header Cp-Attributes: attribute "9"/],
    ['an attribute twice', { 'Cp-Key': 'u', 'Cp-Attributes': 'country=DE&country=FR' }, /attribute "country" was given more than once/],
  ])('headers with %s: 400 naming the header', async (_case, headers, message) => {
    const res = await consume('', headers);
    expect(res.status).toBe(400);
    expect(res.json().detail).toMatch(message);
  });
});

it('a rollout: its advance served as a new mapping, its stop within a second: the fallback without a descriptor, to arm requests too', async () => {
  const started = await startRollout({ ...target(), candidateVariantId: v2 }, stack.domain);
  if (started.outcome !== 'started') throw new Error(`the rollout was not started: ${started.outcome}`);
  const first = (await served())!;
  expect(first.kind).toBe('rollout');
  const advanced = await changeRollout({ ...target(), action: 'advance', expectedRevision: started.rollout.revision }, stack.domain);
  const mapping = (await served())!;
  expect(mapping.revision).toBeGreaterThan(first.revision);
  expect(mapping.segments[0]!.arms).toEqual([
    { arm: 'v2', variantId: v2, upTo: advanced.weight },
    { arm: 'release', variantId: null, upTo: 100_000 },
  ]);
  const armQuery = `&arm=v2&rev=${mapping.revision}`;
  expect((await consume(armQuery)).header('cp-arm')).toBe('v2');
  const since = Date.now();
  await stopRollout(target(), stack.domain);
  for (;;) {
    const [fallback, arm] = await Promise.all([consume(''), consume(armQuery)]);
    if (fallback.json().assignment === undefined && variantOf(arm) === release) {
      expect(arm.header('cp-arm')).toBeUndefined();
      expect(arm.header('vary')).toBe('Accept-Encoding');
      break;
    }
    expect(Date.now() - since).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});
