/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- tool results are JSON, checked by assertions */
import { randomUUID } from 'node:crypto';
import { createUsageWriter } from '@cp/db';
import { aComponent, aUsageEvent, aVariant } from '@cp/db/testing';
import type { UsageEvent, User } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, startHarness, type Harness } from './support/harness.js';

/** get_component_usage over real HTTP with a real token, on figures written by the usage writer. */
let domain: TestDomain;
let h: Harness;
let alice: User;
let client: Client;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps, usage: domain.usage });
  alice = await aUser(h.domain);
  client = await h.connect(await h.tokenFor(alice, { scope: 'mcp:read' }));
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

type Result = { structuredContent?: Record<string, any>; isError?: boolean };

async function call(args: Record<string, unknown>, as: Client = client): Promise<Record<string, any>> {
  const result = (await as.callTool({ name: 'get_component_usage', arguments: args })) as Result;
  expect(result.isError).toBeFalsy();
  return result.structuredContent!;
}

async function callError(args: Record<string, unknown>, as: Client = client): Promise<{ code: string; message: string }> {
  const result = (await as.callTool({ name: 'get_component_usage', arguments: args })) as Result;
  expect(result.isError).toBe(true);
  return result.structuredContent!.error as { code: string; message: string };
}

// Now, so the events fall in the current hour: the latest hours are read from the minute rollups.
const render = (over: Partial<UsageEvent> & Pick<UsageEvent, 'componentId' | 'variantId'>): UsageEvent =>
  aUsageEvent({ at: new Date(), environment: 'prod', isolation: 'shadow', value: 20, ...over });
const times = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

/** Alice's component with v1 then v2 released to prod, and `renders`/`errors` measured for each there. */
async function aReleasedComponent(figures: { v1: [number, number]; v2: [number, number] }) {
  const { repos } = domain.database;
  const component = await aComponent(repos, { organizationId: alice.defaultOrganizationId, createdBy: alice.id });
  const v1 = (await repos.variants.findLatest(component.id))!;
  const v2 = await aVariant(repos, { componentId: component.id, createdBy: alice.id });
  const prod = (await repos.environments.findByName(alice.defaultOrganizationId, 'prod'))!;
  for (const variant of [v1, v2]) {
    await repos.releases.publish({
      eventId: randomUUID(),
      componentId: component.id,
      environmentId: prod.id,
      variantId: variant.id,
      releasedBy: alice.id,
      now: new Date(),
      audit: { eventId: randomUUID(), actorId: alice.id },
    });
  }
  const writer = createUsageWriter(domain.database.database.sql);
  const error = { errorClass: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", stackHash: '0a1b2c3d' };
  for (const [variantId, [renders, errors]] of [[v1.id, figures.v1], [v2.id, figures.v2]] as const) {
    await writer.append([
      ...times(renders, () => render({ componentId: component.id, variantId })),
      ...times(errors, () => render({ componentId: component.id, variantId, type: 'error', name: 'uncaught', value: null, error })),
    ]);
  }
  await writer.addServed([{ minute: new Date(), componentId: component.id, environment: 'prod', variantId: v2.id, count: 9 }]);
  return { component, v1, v2 };
}

test('reports figures by environment and variant, the releases and the top errors, and says whether the newest version does worse', async () => {
  const { component, v1, v2 } = await aReleasedComponent({ v1: [150, 1], v2: [120, 30] });
  const result = await call({ componentId: component.id });
  expect(result).toMatchObject({ success: true, componentId: component.id, componentName: component.name, window: '7d' });
  expect(result.total).toMatchObject({ served: 9, renders: 270, errors: 31, errorRate: 31 / 301 });
  expect(result.byEnvironment).toHaveLength(1);
  expect(result.byVariant.map((s: any) => [s.environment, s.variantLabel, s.variantId, s.renders, s.errors])).toEqual([
    ['prod', 'v2', v2.id, 120, 30],
    ['prod', 'v1', v1.id, 150, 1],
  ]);
  expect(result.byVariant[0].render.p50).toBeGreaterThan(16);
  expect(result.byVariant[0].render.p50).toBeLessThan(23);
  expect(result.releases.map((r: any) => [r.environment, r.variantId, r.previousVariantId, r.rollback])).toEqual([
    ['prod', v1.id, null, false],
    ['prod', v2.id, v1.id, false],
  ]);
  expect(result.topErrors).toMatchObject([
    { errorClass: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", count: 30, variantId: v2.id },
    { count: 1, variantId: v1.id },
  ]);
  expect(result.summary).toBe(
    `prod: is v2 doing worse than v1? yes, it is doing worse: its error rate rose; error rate 20.00 % vs 0.66 %, render p75 ${Math.round(result.byVariant[0].render.p75)} ms vs ${Math.round(result.byVariant[1].render.p75)} ms.`,
  );
});

test('says when there are too few renders to judge, and filters by environment', async () => {
  const { component } = await aReleasedComponent({ v1: [1, 0], v2: [1, 1] });
  const result = await call({ componentId: component.id, window: '24h', environment: 'prod' });
  expect(result.summary).toMatch(/^prod: is v2 doing worse than v1\? too few renders to judge \(each needs 100 renders \+ errors\); /);
  const staging = await call({ componentId: component.id, window: '30d', environment: 'staging' });
  expect(staging.byVariant).toEqual([]);
  expect(staging.summary).toBe('No usage was recorded in the last 30d.');
});

// A token without mcp:read is refused before the tool runs: test/auth.test.ts covers every read tool.
test('refuses a window it does not know and a stranger', async () => {
  const { component } = await aReleasedComponent({ v1: [1, 0], v2: [1, 0] });
  expect(await callError({ componentId: component.id, window: '90d' })).toEqual({
    code: 'INVALID_INPUT',
    message: 'Invalid arguments for get_component_usage: window must be one of "24h", "7d", "30d".',
  });
  const bob = await aUser(h.domain);
  const asBob = await h.connect(await h.tokenFor(bob, { scope: 'mcp:read' }));
  expect(await callError({ componentId: component.id }, asBob)).toEqual({
    code: 'NOT_FOUND',
    message: `Component "${component.id}" was not found, or you do not have access to it.`,
  });
});
