import { editComponentTags } from '@cp/domain';
import { get } from './support/http-client.js';
import { dropListeners } from './support/postgres-admin.js';
import { aPublishedFlow, aUser, publish, SMALL_PAGE, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * Two delivery instances, each with its own cache and its own LISTEN, as two
 * processes behind a load balancer; the writes come from a third party (the
 * domain use cases over their own connection, as the MCP server does them).
 * PGlite delivers NOTIFY inside its process, so this runs on both databases.
 */

let stack: TestStack;
let a: Instance;
let b: Instance;
let actor: { userId: string };
let organizationId: string;
let componentId: string;

beforeAll(async () => {
  stack = await openTestStack();
  [a, b] = await Promise.all([startInstance(stack), startInstance(stack)]);
  ({ actor, organizationId } = await aUser(stack.domain));
  componentId = (await upload(stack.domain, actor)).componentId;
  await publish(stack.domain, actor, componentId, 'prod');
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await stack?.close();
});

const variantOf = async (instance: Instance, query: string) =>
  (await get(instance.url, `/consume?${query}`)).json().item.consume_variant[0].id as string;

/** Milliseconds until both instances serve `expected`, polling every 10 ms; fails after `limitMs`. */
async function timeUntilBothServe(query: string, expected: string, since: number, limitMs = 1000): Promise<number> {
  for (;;) {
    const [fromA, fromB] = await Promise.all([variantOf(a, query), variantOf(b, query)]);
    const elapsed = Date.now() - since;
    if (fromA === expected && fromB === expected) return elapsed;
    if (elapsed > limitMs) throw new Error(`after ${elapsed} ms: instance A serves ${fromA}, B serves ${fromB}, expected ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

it('after a publish, both instances serve the new variant within one second', async () => {
  const prod = `id=${componentId}&env=prod`;
  const before = await variantOf(a, prod);
  expect(await variantOf(b, prod)).toBe(before);

  const { variantId } = await upload(stack.domain, actor, { componentId, html: SMALL_PAGE.replace('Hello', 'Hi') });
  // The upload changes the preview at once, the release not yet.
  await timeUntilBothServe(`id=${componentId}`, variantId, Date.now());
  expect(await variantOf(a, prod)).toBe(before);

  await publish(stack.domain, actor, componentId, 'prod', variantId);
  const elapsed = await timeUntilBothServe(prod, variantId, Date.now());
  expect(elapsed).toBeLessThan(1000);
});

it('a rollback (publishing an earlier variant) reaches both instances too', async () => {
  const prod = `id=${componentId}&env=prod`;
  const current = await variantOf(a, prod);
  const { variantId: next } = await upload(stack.domain, actor, { componentId });
  await publish(stack.domain, actor, componentId, 'prod', next);
  await timeUntilBothServe(prod, next, Date.now());
  await publish(stack.domain, actor, componentId, 'prod', current);
  expect(await timeUntilBothServe(prod, current, Date.now())).toBeLessThan(1000);
});

it('a tag change reaches both instances (through /flow, where tags show)', async () => {
  const flow = await aPublishedFlow(stack.domain, actor, organizationId, [componentId]);
  const tagsOf = async (instance: Instance) => (await get(instance.url, `/flow?id=${flow.id}`)).json().item.components[0].type.tags as string[];
  expect(await tagsOf(a)).toEqual(await tagsOf(b));
  const since = Date.now();
  await editComponentTags({ actor, componentId, add: ['fresh'] }, stack.domain);
  for (;;) {
    const [tagsA, tagsB] = await Promise.all([tagsOf(a), tagsOf(b)]);
    if (tagsA.includes('fresh') && tagsB.includes('fresh')) break;
    if (Date.now() - since > 1000) throw new Error(`tags not updated within 1 s: ${tagsA.join()} / ${tagsB.join()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

const onPostgres = process.env.DATABASE_URL ? it : it.skip;
if (!process.env.DATABASE_URL) {
  process.stdout.write('invalidation.test.ts: "a dropped LISTEN connection" skipped: it needs PostgreSQL (set DATABASE_URL); PGlite has no connection to drop.\n');
}

onPostgres('a dropped LISTEN connection reconnects, and what changed meanwhile is not served stale', async () => {
  const prod = `id=${componentId}&env=prod`;
  await variantOf(a, prod);
  await dropListeners(stack.databaseUrl!);
  // Written while no instance listens: its notification is lost.
  const { variantId } = await upload(stack.domain, actor, { componentId });
  await publish(stack.domain, actor, componentId, 'prod', variantId);
  // On reconnecting, each instance marks everything stale (bounded by its reconnect backoff).
  await timeUntilBothServe(prod, variantId, Date.now(), 3000);
});
