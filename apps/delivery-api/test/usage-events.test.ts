import { randomUUID } from 'node:crypto';
import { NO_VARIANT, type UsageEvent, type UsageWriter } from '@cp/domain';
import { createLogger, silentLogger } from '@cp/http-runtime';
import { makeConfig } from '../src/config.js';
import { serveDelivery } from '../src/serve.js';
import { get, send } from './support/http-client.js';
import { aUser, publish, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * POST /v1/events and the served counts, over real HTTP against the real app and a real
 * database (PGlite, or PostgreSQL with DATABASE_URL). Writes are flushed by calling flush()
 * (the timers are off here), never by waiting. Each test sends from its own client network
 * (X-Forwarded-For, trusted here), so budgets do not leak between tests.
 */

let stack: TestStack;
let delivery: Instance;
let limited: Instance;
let card: { componentId: string; variantId: string };
let other: { componentId: string; variantId: string };

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const manual = { flushIntervalMs: 0, servedFlushIntervalMs: 0 };

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack, { config: { trustProxy: true, usage: manual } });
  limited = await startInstance(stack, { config: { trustProxy: true, usage: { ...manual, eventsPerNetwork: 100, eventsPerComponent: 150, lookupsPerNetwork: 8 } } });
  const { actor } = await aUser(stack.domain);
  card = await upload(stack.domain, actor, { name: 'Usage card' });
  await publish(stack.domain, actor, card.componentId, 'prod');
  other = await upload(stack.domain, actor, { name: 'Other card' });
});

afterAll(async () => {
  await limited?.close();
  await delivery?.close();
  await stack?.close();
});

let network = 0;
/** A client network of its own for each caller. */
const aNetwork = () => `198.51.100.${++network}`;

const anEvent = (over: Record<string, unknown> = {}) => ({
  type: 'load',
  component: card.componentId,
  env: 'prod',
  variant: card.variantId,
  isolation: 'iframe',
  sdk: '1.0.0',
  host: 'shop.example.com',
  session: 'q2Vb8mW0dXc4Lk9PzR1sTa',
  seq: 0,
  rate: 1,
  name: 'consume',
  ms: 42.5,
  cache: false,
  ...over,
});
const events = (n: number, over: Record<string, unknown> = {}) => Array.from({ length: n }, (_, seq) => anEvent({ seq, ...over }));
const batch = (list: unknown[]) => JSON.stringify({ v: 1, events: list });

function post(instance: Instance, body: string, options: { from?: string; headers?: Record<string, string> } = {}) {
  return send(instance.url, '/v1/events', {
    method: 'POST',
    headers: {
      'Content-Type': 'text/plain;charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'User-Agent': FIREFOX,
      'X-Forwarded-For': options.from ?? aNetwork(),
      ...options.headers,
    },
    body,
  });
}

async function stored(componentId: string): Promise<{ events: number; minutes: number; served: number }> {
  const one = async (text: string) => (await stack.sql.rows<{ n: number }>({ text, values: [componentId] }))[0]!.n;
  return {
    events: await one('SELECT count(*)::int AS n FROM "usage"."events" WHERE "component_id" = $1'),
    minutes: await one(`SELECT coalesce(sum("count"), 0)::int AS n FROM "usage"."minutes" WHERE "component_id" = $1 AND "type" <> 'served'`),
    served: await one(`SELECT coalesce(sum("count"), 0)::int AS n FROM "usage"."minutes" WHERE "component_id" = $1 AND "type" = 'served'`),
  };
}

async function counter(instance: Instance, name: string, label: string): Promise<number> {
  const text = (await get(instance.url, '/metrics')).body.toString();
  const match = new RegExp(`^${name}\\{[^}]*${label}[^}]*\\} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

const detail = (res: { json(): { detail: string } }) => res.json().detail;

describe('accepted events', () => {
  it('answers 204 with CORS, and lands in the raw events and the minute rollups once flushed, with no address or user agent', async () => {
    const before = await stored(card.componentId);
    const res = await post(delivery, batch([...events(3), anEvent({ type: 'render', name: 'ready', ms: 80, cache: undefined, seq: 3 })]), { from: '203.0.113.77' });
    expect(res.status).toBe(204);
    expect(res.header('access-control-allow-origin')).toBe('*');
    expect(res.body.length).toBe(0);

    await delivery.app.usage.flush();
    expect(await stored(card.componentId)).toEqual({ events: before.events + 4, minutes: before.minutes + 4, served: before.served });
    const rows = await stack.sql.rows<{ row: Record<string, unknown> }>({
      text: 'SELECT row_to_json(e) AS row FROM "usage"."events" e WHERE "component_id" = $1 AND "type" = $2',
      values: [card.componentId, 'render'],
    });
    expect(rows).toHaveLength(1);
    const row = rows[0]!.row;
    expect(row).toMatchObject({ environment: 'prod', variant_id: card.variantId, name: 'ready', value: 80, browser: 'firefox', host_name: 'shop.example.com', isolation: 'iframe' });
    const text = JSON.stringify(row);
    expect(text).not.toContain('203.0.113.77');
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain('Mozilla');
    // Stamped with the server's clock.
    expect(Math.abs(new Date(row.at as string).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('stores a preview (env null) under the empty environment, and an error with its class, message and stack hash', async () => {
    const error = anEvent({ type: 'error', name: 'uncaught', env: null, ms: undefined, cache: undefined, error: { class: 'TypeError', message: 'x is undefined', stack: '0a1b2c3d' } });
    expect((await post(delivery, batch([error]), { headers: { 'Content-Type': 'application/json' } })).status).toBe(204);
    await delivery.app.usage.flush();
    const [group] = await stack.sql.rows<Record<string, unknown>>({
      text: 'SELECT "environment", "error_class", "message", "count"::int AS count FROM "usage"."error_groups" WHERE "component_id" = $1 AND "stack_hash" = $2',
      values: [card.componentId, '0a1b2c3d'],
    });
    expect(group).toEqual({ environment: '', error_class: 'TypeError', message: 'x is undefined', count: 1 });
  });

  it('stores an SDK error raised before any variant loaded (variant null) under NO_VARIANT, and text that PostgreSQL cannot hold made storable', async () => {
    const early = anEvent({ type: 'error', name: 'sdk', variant: null, ms: undefined, cache: undefined, error: { class: 'NETWORK', message: 'offline', stack: '811c9dc5' } });
    // An action name cut inside a surrogate pair, and a NUL in a message: one odd character must not cost the batch.
    const action = anEvent({ type: 'interaction', name: 'add \ud83d', ms: undefined, cache: undefined });
    const nul = anEvent({ type: 'error', name: 'uncaught', ms: undefined, cache: undefined, error: { class: 'Error', message: 'a\u0000b', stack: '0badc0de' } });
    const session = 'OddTextOddTextOddText1';
    expect((await post(delivery, batch([early, action, nul].map((event) => ({ ...event, session }))))).status).toBe(204);
    await delivery.app.usage.flush();
    const rows = await stack.sql.rows<{ variant_id: string; name: string; error_message: string | null }>({
      text: 'SELECT "variant_id", "name", "error_message" FROM "usage"."events" WHERE "session_id" = $1 ORDER BY "name"',
      values: [session],
    });
    expect(rows).toEqual([
      { variant_id: card.variantId, name: 'add \ufffd', error_message: null },
      { variant_id: NO_VARIANT, name: 'sdk', error_message: 'offline' },
      { variant_id: card.variantId, name: 'uncaught', error_message: 'a\ufffdb' },
    ]);
  });

  it('answers the CORS preflight for POST', async () => {
    const res = await send(delivery.url, '/v1/events', {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.header('access-control-allow-origin')).toBe('*');
    expect(res.header('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(res.header('access-control-allow-headers')).toContain('*');
  });

  it('is in the OpenAPI document, with its body schema and its problems', async () => {
    const doc = (await get(delivery.url, '/openapi.json')).json();
    const operation = doc.paths['/v1/events'].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(['text/plain', 'application/json']);
    expect(Object.keys(operation.responses)).toEqual(['204', '400', '405', '413', '415', '429', '503']);
    expect(Object.keys(doc.components.schemas.UsageEvent.properties)).toEqual(['type', 'component', 'env', 'variant', 'isolation', 'sdk', 'host', 'session', 'seq', 'rate', 'name', 'ms', 'cache', 'error']);
  });

  it('refuses GET with 405 and Allow', async () => {
    const res = await get(delivery.url, '/v1/events');
    expect(res.status).toBe(405);
    expect(res.header('allow')).toBe('POST, OPTIONS');
    expect(detail(res)).toBe('GET is not allowed here: send usage events with POST.');
  });
});

describe('events about what does not exist: 204, nothing stored, counted', () => {
  it.each([
    ['an unknown component', () => ({ component: '00000000-0000-4000-8000-000000000000' }), 'unknown_component'],
    ['an environment its organization does not have', () => ({ env: 'qa' }), 'unknown_environment'],
    ['a variant of another component', () => ({ variant: other.variantId }), 'unknown_variant'],
    ['a variant that does not exist', () => ({ variant: '00000000-0000-4000-8000-000000000001' }), 'unknown_variant'],
  ])('%s', async (_what, change, result) => {
    const before = await stored(card.componentId);
    const counted = await counter(delivery, 'delivery_usage_events_total', `result="${result}"`);
    // Twice: the second batch is answered from the cached (negative) lookups.
    for (let i = 0; i < 2; i++) expect((await post(delivery, batch(events(2, change())))).status).toBe(204);
    await delivery.app.usage.flush();
    expect(await stored(card.componentId)).toEqual(before);
    expect(await counter(delivery, 'delivery_usage_events_total', `result="${result}"`)).toBe(counted + 4);
  });
});

describe('refused requests', () => {
  it('413 for a body over 64 KiB, declared or not', async () => {
    const big = batch(events(150, { host: `${'a'.repeat(200)}.example.com` }));
    expect(Buffer.byteLength(big)).toBeGreaterThan(64 * 1024);
    const declared = await post(delivery, big);
    const chunked = await send(delivery.url, '/v1/events', { method: 'POST', headers: { 'Content-Type': 'text/plain', 'X-Forwarded-For': aNetwork() }, body: big });
    for (const res of [declared, chunked]) {
      expect(res.status).toBe(413);
      expect(res.header('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(res.header('connection')).toBe('close');
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
      expect(detail(res)).toBe('The body is larger than 65536 bytes: send at most 200 events, in at most 64 KiB, per request.');
    }
  });

  it('413 for more than 200 events', async () => {
    const res = await post(delivery, batch(events(201)));
    expect(res.status).toBe(413);
    expect(detail(res)).toBe('201 events in one batch: send at most 200 per request.');
  });

  it.each([
    ['a negative ms', () => [anEvent(), anEvent(), anEvent(), anEvent({ ms: -1 })], 'events[3].ms: must be a number of milliseconds from 0 to 3600000'],
    ['a render without ms', () => [anEvent({ type: 'render', name: 'ready', ms: undefined, cache: undefined })], 'events[0].ms: required for render events'],
    ['a load named otherwise', () => [anEvent({ name: 'fetch' })], 'events[0].name: a load event\'s name is "consume"'],
    ['an error without its error', () => [anEvent({ type: 'error', name: 'sdk', ms: undefined, cache: undefined })], 'events[0].error: required for error events'],
    ['a stack that is not 8 hex digits', () => [anEvent({ type: 'error', name: 'sdk', ms: undefined, cache: undefined, error: { class: 'E', message: '', stack: 'xyz' } })], 'events[0].error.stack: must be 8 lower-case hex digits'],
    ['a path in host', () => [anEvent({ host: 'shop.example.com/cart' })], 'events[0].host: must be the page\'s host name, such as shop.example.com (no scheme, port or path)'],
    ['a malformed component id', () => [anEvent({ component: 'card' })], 'events[0].component: must be a component id (a UUID)'],
    ['a rate of 0', () => [anEvent({ rate: 0 })], 'events[0].rate: must be a number in (0, 1]'],
    [
      'a field v1 does not define',
      () => [anEvent({ userId: 'u-1' })],
      'events[0]: unknown field "userId"; version 1 accepts type, component, env, variant, isolation, sdk, host, session, seq, rate, name, ms, cache, error',
    ],
    ['no events', () => [], 'events: must hold at least one event'],
    [
      'a variant of null outside an SDK error',
      () => [anEvent({ variant: null })],
      'events[0].variant: may be null only for an error event named "sdk" (raised before any variant was loaded)',
    ],
  ])('400 for %s, naming the field', async (_what, list, message) => {
    const res = await post(delivery, batch(list()));
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', status: 400 });
    expect(detail(res)).toBe(message);
  });

  it('400 for a body that is not JSON, or not a batch', async () => {
    const notJson = await post(delivery, '{"v":1,');
    expect(notJson.status).toBe(400);
    expect(detail(notJson)).toBe('The body is not JSON: send {"v":1,"events":[…]}.');
    const array = await post(delivery, '[]');
    expect(detail(array)).toBe('The body must be a JSON object: {"v":1,"events":[…]}.');
  });

  it('400 for another version, saying which are accepted', async () => {
    const res = await post(delivery, JSON.stringify({ v: 2, events: [anEvent()] }));
    expect(res.status).toBe(400);
    expect(detail(res)).toBe('v: version 2 is not accepted; this server accepts version 1.');
    const missing = await post(delivery, JSON.stringify({ events: [anEvent()] }));
    expect(detail(missing)).toBe('v: required; this server accepts version 1.');
  });

  it('415 for another content type', async () => {
    const res = await post(delivery, batch([anEvent()]), { headers: { 'Content-Type': 'text/html' } });
    expect(res.status).toBe(415);
    expect(detail(res)).toBe('Content-Type "text/html" is not accepted: send the batch as text/plain;charset=UTF-8 or application/json.');
  });
});

describe('budgets, counted in events', () => {
  const retryAfter = (res: { header(name: string): string | undefined }) => Number(res.header('retry-after'));

  it('per client network: N parallel batches never pass more than the budget together', async () => {
    const from = aNetwork();
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(limited, batch(events(20)), { from })));
    expect(answers.filter((res) => res.status === 204)).toHaveLength(5);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(35);
    for (const res of refused) {
      expect(retryAfter(res)).toBeGreaterThanOrEqual(1);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
      expect(detail(res)).toBe(`Too many usage events from this network: retry in ${retryAfter(res)} seconds, or sample fewer events.`);
    }
  });

  it('per client network: one batch of 200 events pays 200', async () => {
    const res = await post(limited, batch(events(200, { component: other.componentId, variant: other.variantId })));
    expect(res.status).toBe(429);
    expect(retryAfter(res)).toBeGreaterThanOrEqual(1);
  });

  it('per component, from every network together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(limited, batch(events(20, { component: other.componentId, variant: other.variantId })))),
    );
    expect(answers.filter((res) => res.status === 204)).toHaveLength(7);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(3);
    expect(detail(refused[0]!)).toBe(`Too many usage events about this component: retry in ${retryAfter(refused[0]!)} seconds, or sample fewer events.`);
  });
});

describe('made-up ids', () => {
  it('cost the database a bounded number of reads per client network: then 429', async () => {
    // The card's ids, read once (from elsewhere): cached from now on.
    expect((await post(limited, batch(events(1)))).status).toBe(204);
    const from = aNetwork();
    const madeUp = () => events(3).map((event) => ({ ...event, component: randomUUID() }));
    // 3 reads of 8, then 6 more: refused (and counted, as every refusal).
    expect((await post(limited, batch(madeUp()), { from })).status).toBe(204);
    const res = await post(limited, batch([...madeUp(), ...madeUp()]), { from });
    expect(res.status).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(detail(res)).toBe(
      `Too many unknown component and variant ids from this network: send the ids /consume returned; retry in ${res.header('retry-after')} seconds.`,
    );
    // Known ids are cached: they read nothing, and pass.
    expect((await post(limited, batch(events(2)), { from })).status).toBe(204);
  });
});

describe('served counts', () => {
  it('counts every /consume response, 200 and 304 alike, per environment and variant', async () => {
    const before = await stored(card.componentId);
    const path = `/consume?id=${card.componentId}&env=prod`;
    const first = await get(delivery.url, path);
    expect(first.status).toBe(200);
    expect((await get(delivery.url, path, { 'If-None-Match': first.header('etag')! })).status).toBe(304);
    expect((await get(delivery.url, `/consume?id=${card.componentId}`)).status).toBe(200);
    await delivery.app.usage.flush();
    expect((await stored(card.componentId)).served).toBe(before.served + 3);
    const rows = await stack.sql.rows<{ environment: string; variant_id: string; name: string; n: number }>({
      text: `SELECT "environment", "variant_id", "name", sum("count")::int AS n FROM "usage"."minutes" WHERE "component_id" = $1 AND "type" = 'served' GROUP BY 1, 2, 3 ORDER BY 1`,
      values: [card.componentId],
    });
    expect(rows).toEqual([
      { environment: '', variant_id: card.variantId, name: 'consume', n: expect.any(Number) },
      { environment: 'prod', variant_id: card.variantId, name: 'consume', n: expect.any(Number) },
    ]);
  });
});

describe('writes that fail, and shutdown', () => {
  it('keeps the rows of a failed write for the next one, up to the bound, then drops the oldest', async () => {
    let failing = true;
    const writer: UsageWriter = {
      append: (list: readonly UsageEvent[]) => (failing ? Promise.reject(new Error('database down')) : stack.usage.append(list)),
      addServed: (counts) => stack.usage.addServed(counts),
    };
    const lines: string[] = [];
    const log = createLogger({ service: 'delivery-api', level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    const instance = await startInstance(stack, { usage: writer, log, config: { usage: { ...manual, maxBufferedRows: 30 } } });
    try {
      const session = 'FailFailFailFailFail01';
      expect((await post(instance, batch(events(20, { session })))).status).toBe(204);
      await instance.app.usage.flush();
      expect((await post(instance, batch(events(20, { session }).map((e) => ({ ...e, seq: e.seq + 20 }))))).status).toBe(204);
      await instance.app.usage.flush();
      expect(await counter(instance, 'delivery_usage_rows_dropped_total', 'kind="events"')).toBe(10);
      failing = false;
      await instance.app.usage.flush();
      const seqs = await stack.sql.rows<{ sequence: number }>({
        text: 'SELECT "sequence" FROM "usage"."events" WHERE "session_id" = $1 ORDER BY 1',
        values: [session],
      });
      expect(seqs.map((row) => row.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => i + 10));
      // Logged at warn, with counts and no event data.
      const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(warnings.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
        'usage events not written; kept for the next attempt',
        'usage buffer full: oldest events dropped',
        'usage events not written; kept for the next attempt',
      ]);
      expect(lines.join('')).not.toContain(session);
      expect(lines.join('')).not.toContain('shop.example.com');
    } finally {
      await instance.close();
    }
  });

  it('drops the rows of a write the database refuses as such (a data error), and goes on with the next', async () => {
    // A NUL in text (SQLSTATE 22021), put past the schema by a writer that hands the ingest's rows to the real one.
    let poison = true;
    const writer: UsageWriter = {
      append: (list: readonly UsageEvent[]) => stack.usage.append(poison ? list.map((e) => ({ ...e, hostName: 'bad\u0000host' })) : list),
      addServed: (counts) => stack.usage.addServed(counts),
    };
    const instance = await startInstance(stack, { usage: writer, config: { usage: manual } });
    try {
      const session = 'PoisonPoisonPoison0001';
      expect((await post(instance, batch(events(5, { session })))).status).toBe(204);
      await instance.app.usage.flush();
      expect(await counter(instance, 'delivery_usage_rows_dropped_total', 'kind="events"')).toBe(5);
      poison = false;
      expect((await post(instance, batch(events(3, { session }).map((e) => ({ ...e, seq: e.seq + 5 }))))).status).toBe(204);
      await instance.app.usage.flush();
      const seqs = await stack.sql.rows<{ sequence: number }>({ text: 'SELECT "sequence" FROM "usage"."events" WHERE "session_id" = $1 ORDER BY 1', values: [session] });
      expect(seqs.map((row) => row.sequence)).toEqual([5, 6, 7]);
    } finally {
      await instance.close();
    }
  });

  it('closing the service (SIGTERM: drain, then close) writes what is buffered', async () => {
    const service = await serveDelivery({
      config: makeConfig({ port: 0, usage: { flushIntervalMs: 60_000, servedFlushIntervalMs: 60_000 } }),
      host: '127.0.0.1',
      repos: stack.repos,
      objects: stack.domain.objects,
      changes: await stack.openChangeFeed(),
      usage: stack.usage,
      log: silentLogger(),
    });
    const url = `http://127.0.0.1:${service.port}`;
    const session = 'ShutdownShutdownShut01';
    const body = batch(events(5, { session }));
    const res = await send(url, '/v1/events', { method: 'POST', headers: { 'Content-Type': 'text/plain', 'Content-Length': String(Buffer.byteLength(body)) }, body });
    expect(res.status).toBe(204);
    const served = (await stored(card.componentId)).served;
    expect((await get(url, `/consume?id=${card.componentId}&env=prod`)).status).toBe(200);
    await service.close();
    const [row] = await stack.sql.rows<{ n: number }>({ text: 'SELECT count(*)::int AS n FROM "usage"."events" WHERE "session_id" = $1', values: [session] });
    expect(row!.n).toBe(5);
    expect((await stored(card.componentId)).served).toBe(served + 1);
  });
});
