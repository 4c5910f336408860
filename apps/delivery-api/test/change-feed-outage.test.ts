import { randomUUID } from 'node:crypto';
import { createLogger } from '@cp/http-runtime';
import { startFaultProxy, type FaultProxy } from '@cp/http-runtime/testing';
import pg from 'pg';
import type { ChangeFeed } from '../src/changes/change-feed.js';
import { createPostgresChangeFeed } from '../src/changes/postgres-change-feed.js';

/*
 * The change feed's LISTEN connection behind a TCP fault proxy: a connection that goes
 * silent (the proxy hangs it: no reset ever comes) is found by the heartbeat and
 * replaced; once PostgreSQL answers again the feed listens again, reports `missed`
 * (the cache then revalidates everything) and hears notifications at once. The same
 * after connections are refused. PostgreSQL only (NOTIFY crosses processes there).
 */

const DATABASE_URL = process.env.DATABASE_URL;
const run = DATABASE_URL ? describe : describe.skip;
if (!DATABASE_URL) console.log('change-feed-outage: skipped (PostgreSQL only). Set DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres to run it.');

const timing = { maxBackoffMs: 500, heartbeatMs: 500, deadlineMs: 400 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (condition: () => boolean, withinMs: number): Promise<number> => {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > withinMs) throw new Error(`not within ${withinMs} ms`);
    await sleep(20);
  }
  return performance.now() - start;
};

let proxy: FaultProxy;
let feed: ChangeFeed;
let notifier: pg.Client;
const heard: string[] = [];
let missed = 0;

run('the change feed through an outage', () => {
  beforeAll(async () => {
    const url = new URL(DATABASE_URL!);
    proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    feed = createPostgresChangeFeed(url.href, createLogger({ service: 'test', level: 'silent' }), timing);
    feed.subscribe({ changed: (id) => heard.push(id), changedPrivately: () => undefined, missed: () => (missed += 1) });
    notifier = new pg.Client({ connectionString: DATABASE_URL });
    await notifier.connect();
    await feed.listening;
  });

  afterAll(async () => {
    await proxy?.restore();
    await feed?.close();
    await notifier?.end();
    await proxy?.close();
  });

  const notify = (id: string) => notifier.query('SELECT pg_notify($1, $2)', ['component_changed', id]);

  it('a silent connection is found and replaced; after it, missed then every notification', async () => {
    const before = randomUUID();
    await notify(before);
    await until(() => heard.includes(before), 2000);
    const missedBefore = missed;
    const acceptedBefore = proxy.accepted;

    // Hung: no error ever comes; the heartbeat's deadline finds it and a new connection is tried.
    proxy.hang();
    await until(() => proxy.accepted > acceptedBefore, timing.heartbeatMs + timing.deadlineMs + timing.maxBackoffMs + 1000);
    await sleep(1000);
    await proxy.restore();
    const reconnectMs = await until(() => missed > missedBefore, timing.deadlineMs + timing.maxBackoffMs + 2000);
    const after = randomUUID();
    await notify(after);
    await until(() => heard.includes(after), 1000);
    console.log(`change-feed-outage: hung connection replaced; listening again ${Math.round(reconnectMs)} ms after the restore`);
  }, 20_000);

  it('refused connections: retried with backoff, then listening again with missed', async () => {
    const missedBefore = missed;
    await proxy.refuse();
    await sleep(1500);
    await proxy.restore();
    await until(() => missed > missedBefore, timing.deadlineMs + timing.maxBackoffMs + 2000);
    const after = randomUUID();
    await notify(after);
    await until(() => heard.includes(after), 1000);
  }, 20_000);
});
