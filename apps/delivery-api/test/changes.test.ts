import { randomUUID } from 'node:crypto';
import { get, send } from './support/http-client.js';
import { openStream, type EventStreamClient } from './support/event-stream.js';
import { dropListeners } from './support/postgres-admin.js';
import { aUser, publish, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * GET /changes over real HTTP, driven by real writes: the domain use cases publish
 * through their own connection (as the MCP server does) and the instance's change
 * feed hears them (LISTEN/NOTIFY on PostgreSQL with DATABASE_URL, in process on PGlite).
 */

let stack: TestStack;
let delivery: Instance;
let actor: { userId: string };
let watched: string;
let other: string;
const open: EventStreamClient[] = [];

const stream = async (path: string, headers: Record<string, string> = {}, instance = delivery) => {
  const client = await openStream(instance.url, path, headers);
  open.push(client);
  return client;
};
const changeFor = (id: string) => (event: { type: string; data: string }) => event.type === 'change' && (JSON.parse(event.data) as { id: string }).id === id;

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack, { config: { changeStreams: { heartbeatMs: 100 } } });
  ({ actor } = await aUser(stack.domain));
  watched = (await upload(stack.domain, actor)).componentId;
  other = (await upload(stack.domain, actor)).componentId;
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

test('a stream answers 200 text/event-stream, unbuffered and uncached, readable from any origin, starting with retry', async () => {
  const client = await stream(`/changes?ids=${watched}`);
  expect(client.status).toBe(200);
  expect(client.header('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(client.header('cache-control')).toBe('no-cache, no-transform');
  expect(client.header('x-accel-buffering')).toBe('no');
  expect(client.header('access-control-allow-origin')).toBe('*');
  expect(client.header('content-encoding')).toBeUndefined();
  await client.until(() => client.retry === 2000 && client.lastEventId !== '', 'retry and a position');
  expect(client.lastEventId).toMatch(/^[0-9a-f]{12}-\d+$/);
});

test('a publish reaches a stream as a change for a watched id, and not for an unwatched one', async () => {
  const client = await stream(`/changes?ids=${watched},${randomUUID()}`);
  await client.until(() => client.retry !== null, 'the preamble');
  await publish(stack.domain, actor, other, 'prod');
  await publish(stack.domain, actor, watched, 'prod');
  const event = await client.next(changeFor(watched));
  expect(JSON.parse(event.data)).toEqual({ id: watched });
  expect(event.lastEventId).toMatch(/^[0-9a-f]{12}-\d+$/);
  // Notifications arrive in commit order: the unwatched publish came first and was not sent.
  expect(client.events.filter((e) => e.type === 'change').map((e) => JSON.parse(e.data) as unknown)).toEqual([{ id: watched }]);
});

test('one stream serves many ids; upper-case ids are the same ids', async () => {
  const client = await stream(`/changes?ids=${watched.toUpperCase()},${other}`);
  await client.until(() => client.retry !== null, 'the preamble');
  await publish(stack.domain, actor, watched, 'staging');
  await publish(stack.domain, actor, other, 'staging');
  await client.next(changeFor(watched));
  await client.next(changeFor(other));
});

test('heartbeats: a comment line at the configured interval, carrying the newest event id', async () => {
  const client = await stream(`/changes?ids=${watched}`);
  await client.until(() => client.comments.filter((c) => c === 'keep-alive').length >= 3, 'three heartbeats');
  expect(client.events).toEqual([]);
});

describe('resume', () => {
  test('Last-Event-ID replays what the stream missed while it was away, for its ids only', async () => {
    const first = await stream(`/changes?ids=${watched}`);
    await first.until(() => first.lastEventId !== '', 'a position');
    const resumeFrom = first.lastEventId;
    first.close();
    // A witness stream shows when the instance has heard both publishes.
    const witness = await stream(`/changes?ids=${watched},${other}`);
    await publish(stack.domain, actor, other, 'prod');
    await publish(stack.domain, actor, watched, 'prod');
    await witness.next(changeFor(watched));

    const resumed = await stream(`/changes?ids=${watched}`, { 'Last-Event-ID': resumeFrom });
    const replayed = await resumed.next(changeFor(watched));
    expect(replayed.lastEventId).toBe(witness.events.find(changeFor(watched))!.lastEventId);
    expect(resumed.events.map((e) => e.type)).toEqual(['change']);
  });

  test('lastEventId in the query resumes too (the SDK reopening with a new id set); the header wins', async () => {
    const first = await stream(`/changes?ids=${watched}`);
    await first.until(() => first.lastEventId !== '', 'a position');
    const before = first.lastEventId;
    await publish(stack.domain, actor, watched, 'staging');
    const seen = await first.next(changeFor(watched));

    const byQuery = await stream(`/changes?ids=${watched},${other}&lastEventId=${encodeURIComponent(before)}`);
    await byQuery.next(changeFor(watched));
    const byHeader = await stream(`/changes?ids=${watched}&lastEventId=${encodeURIComponent(before)}`, { 'Last-Event-ID': seen.lastEventId });
    await byHeader.until(() => byHeader.lastEventId !== seen.lastEventId || byHeader.comments.length > 0, 'a heartbeat');
    expect(byHeader.events).toEqual([]);
  });

  test.each([
    ['from another process', '0123456789ab-1'],
    ['malformed', 'not-an-event-id'],
    ['from the future', 'FUTURE'],
  ])('a resume point %s gets a reset', async (_case, given) => {
    const probe = await stream(`/changes?ids=${watched}`);
    await probe.until(() => probe.lastEventId !== '', 'a position');
    const [epoch, seq] = probe.lastEventId.split('-');
    const lastEventId = given === 'FUTURE' ? `${epoch}-${Number(seq) + 100}` : given;
    const client = await stream(`/changes?ids=${watched}`, { 'Last-Event-ID': lastEventId });
    const reset = await client.next((e) => e.type === 'reset');
    expect(reset.data).toBe('{}');
    // The reset carries the current position: the next reconnect resumes from there.
    expect(reset.lastEventId).toBe(probe.lastEventId);
  });
});

describe('missed notifications', () => {
  test('the feed reporting missed changes sends reset to every stream, and a resume from before it replays the reset', async () => {
    const a = await stream(`/changes?ids=${watched}`);
    const b = await stream(`/changes?ids=${other}`);
    await a.until(() => a.lastEventId !== '', 'a position');
    const before = a.lastEventId;
    if (stack.kind === 'postgres') {
      // The real path: the LISTEN connection drops; on reconnecting the feed reports `missed`.
      await dropListeners(stack.databaseUrl!);
    } else {
      // PGlite delivers NOTIFY inside the process and never loses one: call the
      // subscriber as the PostgreSQL feed does after a reconnect.
      delivery.app.streams.missed();
    }
    await a.next((e) => e.type === 'reset', 8000);
    await b.next((e) => e.type === 'reset', 8000);
    const resumed = await stream(`/changes?ids=${watched}`, { 'Last-Event-ID': before });
    await resumed.next((e) => e.type === 'reset');
  });
});

describe('refusals', () => {
  test.each([
    ['no ids', '', 'ids is required'],
    ['empty ids', '?ids=', 'ids must not be empty'],
    ['not a UUID', '?ids=abc', 'not "abc"'],
    ['an empty item', `?ids=${randomUUID()},,${randomUUID()}`, 'not ""'],
    ['51 ids', `?ids=${Array.from({ length: 51 }, () => randomUUID()).join(',')}`, 'at most 50'],
    ['ids twice', `?ids=${randomUUID()}&ids=${randomUUID()}`, 'more than once'],
    ['an unknown parameter', `?ids=${randomUUID()}&env=prod`, 'Unknown parameter "env"'],
    ['a long lastEventId', `?ids=${randomUUID()}&lastEventId=${'x'.repeat(101)}`, 'lastEventId is at most 100'],
  ])('%s: 400 problem saying %p', async (_case, query, message) => {
    const res = await get(delivery.url, `/changes${query}`);
    expect(res.status).toBe(400);
    expect(res.header('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.header('access-control-allow-origin')).toBe('*');
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_INPUT', detail: expect.stringContaining(message) });
  });

  test('50 ids, repeated ones counted once, are accepted', async () => {
    const ids = Array.from({ length: 50 }, () => randomUUID());
    const client = await stream(`/changes?ids=${[...ids, ids[0]].join(',')}`);
    expect(client.status).toBe(200);
  });

  test('OPTIONS answers the methods and the preflight; POST is 405; HEAD answers the headers', async () => {
    const options = await send(delivery.url, `/changes?ids=${watched}`, { method: 'OPTIONS', headers: { Origin: 'https://host.example', 'Access-Control-Request-Method': 'GET' } });
    expect(options.status).toBe(204);
    expect(options.header('access-control-allow-origin')).toBe('*');
    const post = await send(delivery.url, `/changes?ids=${watched}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.header('allow')).toBe('GET, HEAD, OPTIONS');
    const head = await send(delivery.url, `/changes?ids=${watched}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.header('content-type')).toBe('text/event-stream; charset=utf-8');
  });

  test('a draining instance refuses new streams with 503 and Retry-After', async () => {
    const draining = await startInstance(stack, { draining: () => true });
    try {
      const res = await get(draining.url, `/changes?ids=${watched}`);
      expect(res.status).toBe(503);
      expect(res.header('retry-after')).toBe('5');
      expect(res.json()).toMatchObject({ code: 'UNAVAILABLE', detail: expect.stringContaining('shutting down') });
    } finally {
      await draining.close();
    }
  });
});
