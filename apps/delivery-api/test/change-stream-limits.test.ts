import { randomUUID } from 'node:crypto';
import { silentLogger } from '@cp/http-runtime';
import { makeConfig } from '../src/config.js';
import { serveDelivery } from '../src/serve.js';
import { get, send } from './support/http-client.js';
import { openStream, type EventStreamClient } from './support/event-stream.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/* The caps of GET /changes under parallel opens, the release of a slot, and the drain. */

let stack: TestStack;
const instances: Instance[] = [];
const clients: EventStreamClient[] = [];
const ids = `ids=${randomUUID()}`;

beforeAll(async () => {
  stack = await openTestStack();
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const instance of instances.splice(0)) await instance.close();
});
afterAll(async () => {
  await stack?.close();
});

const instanceWith = async (config: Parameters<typeof makeConfig>[0]) => {
  const instance = await startInstance(stack, { config });
  instances.push(instance);
  return instance;
};
const openAll = async (instance: Instance, count: number, headers: Record<string, string> = {}) => {
  const opened = await Promise.all(Array.from({ length: count }, () => openStream(instance.url, `/changes?${ids}`, headers)));
  clients.push(...opened);
  return opened;
};
const statuses = (opened: EventStreamClient[]) => opened.map((client) => client.status).sort();
const openStreamsGauge = async (instance: Instance) => {
  const text = (await get(instance.url, '/metrics')).body.toString();
  const line = text.split('\n').find((l) => l.startsWith('delivery_change_streams{'));
  return Number(line?.split(' ')[1]);
};

test('per client: of parallel opens exactly the cap succeed, the rest answer 429 with Retry-After; HEAD takes no slot', async () => {
  const instance = await instanceWith({ changeStreams: { maxStreamsPerClient: 3 } });
  for (let i = 0; i < 4; i += 1) expect((await send(instance.url, `/changes?${ids}`, { method: 'HEAD' })).status).toBe(200);
  const opened = await openAll(instance, 7);
  expect(statuses(opened)).toEqual([200, 200, 200, 429, 429, 429, 429]);
  const refused = opened.find((client) => client.status === 429)!;
  expect(refused.header('retry-after')).toBe('5');
  expect(refused.header('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(JSON.parse(refused.body)).toMatchObject({ status: 429, code: 'TOO_MANY_STREAMS', type: '/problems/too-many-streams' });
  expect(await openStreamsGauge(instance)).toBe(3);
});

test('per instance: of parallel opens exactly the cap succeed, the rest answer 503', async () => {
  const instance = await instanceWith({ changeStreams: { maxStreams: 4, maxStreamsPerClient: 100 } });
  const opened = await openAll(instance, 9);
  expect(statuses(opened)).toEqual([200, 200, 200, 200, 503, 503, 503, 503, 503]);
  expect(JSON.parse(opened.find((client) => client.status === 503)!.body)).toMatchObject({ code: 'UNAVAILABLE' });
});

test('behind a trusted proxy each forwarded client has its own cap; an untrusted X-Forwarded-For is ignored', async () => {
  const proxied = await instanceWith({ trustProxy: 'loopback', changeStreams: { maxStreamsPerClient: 2 } });
  expect(statuses(await openAll(proxied, 3, { 'X-Forwarded-For': '203.0.113.7' }))).toEqual([200, 200, 429]);
  expect(statuses(await openAll(proxied, 1, { 'X-Forwarded-For': '203.0.113.8' }))).toEqual([200]);

  const direct = await instanceWith({ changeStreams: { maxStreamsPerClient: 1 } });
  expect(statuses(await openAll(direct, 1, { 'X-Forwarded-For': '203.0.113.7' }))).toEqual([200]);
  expect(statuses(await openAll(direct, 1, { 'X-Forwarded-For': '203.0.113.8' }))).toEqual([429]);
});

test('IPv6 clients count by their /64: addresses of one /64 share the cap, another /64 has its own', async () => {
  const proxied = await instanceWith({ trustProxy: 'loopback', changeStreams: { maxStreamsPerClient: 2 } });
  expect(statuses(await openAll(proxied, 1, { 'X-Forwarded-For': '2001:db8:5:6::1' }))).toEqual([200]);
  expect(statuses(await openAll(proxied, 1, { 'X-Forwarded-For': '2001:db8:5:6:aaaa::9' }))).toEqual([200]);
  expect(statuses(await openAll(proxied, 1, { 'X-Forwarded-For': '2001:0db8:0005:0006::ffff' }))).toEqual([429]);
  expect(statuses(await openAll(proxied, 1, { 'X-Forwarded-For': '2001:db8:5:7::1' }))).toEqual([200]);
});

test('a client that disconnects releases its slot', async () => {
  const instance = await instanceWith({ changeStreams: { maxStreamsPerClient: 1 } });
  const [first] = await openAll(instance, 1);
  expect(statuses(await openAll(instance, 1))).toEqual([429]);
  first!.close();
  // The server learns of the disconnect asynchronously: poll until the slot is free.
  const deadline = Date.now() + 5000;
  for (;;) {
    const [again] = await openAll(instance, 1);
    if (again!.status === 200) break;
    if (Date.now() > deadline) throw new Error('the slot was not released within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await openStreamsGauge(instance)).toBe(1);
  expect(instance.app.streams.size).toBe(1);
});

test('draining ends open streams at once instead of holding the shutdown for the grace period', async () => {
  const service = await serveDelivery({
    config: makeConfig({ port: 0 }),
    host: '127.0.0.1',
    repos: stack.repos,
    objects: stack.domain.objects,
    changes: await stack.openChangeFeed(),
    usage: stack.usage,
    log: silentLogger(),
    // Far beyond this test's timeout: closing must not wait for it.
    graceSeconds: 120,
  });
  const url = `http://127.0.0.1:${service.port}`;
  const opened = await Promise.all([openStream(url, `/changes?${ids}`), openStream(url, `/changes?${ids}`)]);
  clients.push(...opened);
  expect(statuses(opened)).toEqual([200, 200]);
  await service.close();
  await Promise.all(opened.map((client) => client.ended));
  expect(opened.every((client) => client.isEnded)).toBe(true);
});
