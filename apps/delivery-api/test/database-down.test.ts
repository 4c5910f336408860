import { get } from './support/http-client.js';
import { bringDatabaseBack, takeDatabaseDown } from './support/postgres-admin.js';
import { aUser, publish, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * The database fails under a running instance. PostgreSQL (DATABASE_URL set):
 * the database refuses connections and its sessions are killed, then it comes
 * back. PGlite: the database is closed (it cannot come back; the recovery step
 * runs on PostgreSQL only).
 */

let stack: TestStack;
let delivery: Instance;
let cachedId: string;
let uncachedId: string;

beforeAll(async () => {
  stack = await openTestStack();
  // An entry is fresh for 1 s, then only served again through stale-if-error.
  delivery = await startInstance(stack, { config: { loadTimeoutMs: 2000, cache: { ttlSeconds: 1 } } });
  const { actor } = await aUser(stack.domain);
  cachedId = (await upload(stack.domain, actor)).componentId;
  uncachedId = (await upload(stack.domain, actor)).componentId;
  await publish(stack.domain, actor, cachedId, 'prod');
  await publish(stack.domain, actor, uncachedId, 'prod');
});

afterAll(async () => {
  if (stack?.databaseUrl) await bringDatabaseBack(stack.databaseUrl);
  await delivery?.close();
  await stack?.close();
});

it('serves cached entries (fresh, then stale-if-error) and answers 503 with Retry-After for the rest', async () => {
  const cached = `/consume?id=${cachedId}&env=prod`;
  const warm = await get(delivery.url, cached);
  expect(warm.status).toBe(200);

  if (stack.databaseUrl) await takeDatabaseDown(stack.databaseUrl);
  else await stack.closeDatabase();

  const fresh = await get(delivery.url, cached);
  expect(fresh.status).toBe(200);
  expect(fresh.body.equals(warm.body)).toBe(true);

  await new Promise((resolve) => setTimeout(resolve, 1100));
  const stale = await get(delivery.url, cached);
  expect(stale.status).toBe(200);
  expect(stale.header('etag')).toBe(warm.header('etag'));

  const missing = await get(delivery.url, `/consume?id=${uncachedId}&env=prod`);
  expect(missing.status).toBe(503);
  expect(missing.header('retry-after')).toBe('5');
  expect(missing.header('content-type')).toMatch(/^application\/problem\+json/);
  expect(missing.json()).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  expect(missing.json().detail).toMatch(/Retry in 5 seconds/);
  expect(missing.header('cache-control')).toBe('no-store');

  if (!stack.databaseUrl) return;
  await bringDatabaseBack(stack.databaseUrl);
  const deadline = Date.now() + 5000;
  for (;;) {
    const res = await get(delivery.url, `/consume?id=${uncachedId}&env=prod`);
    if (res.status === 200) break;
    if (Date.now() > deadline) throw new Error(`still ${res.status} after the database came back`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
