import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createJobBoss, Queue } from '@cp/db';
import {
  aComponent,
  aUserWithOrganization,
  createTestDatabase,
  type TestDatabase,
} from '@cp/db/testing';
import { createWebhookEndpoint } from '@cp/domain';
import { outboundUrlPolicy } from '@cp/http-runtime';
import { freePort } from '@cp/http-runtime/testing';
import { startReceiver, until } from './support/receiver.js';

// The worker as its own process on PostgreSQL (what production runs): SIGKILLed, a change made while
// no worker runs, a new process delivers its event exactly once. PGlite serves one process, so there
// the same scenario runs in-process (test/webhooks.test.ts "an event enqueued while no worker runs ...").
const DATABASE_URL = process.env.DATABASE_URL;
const run = DATABASE_URL ? describe : describe.skip;
if (!DATABASE_URL)
  console.log(
    'worker-process: skipped. Set DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres to run it.',
  );

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

run('the worker process', () => {
  let db: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const children: ChildProcess[] = [];

  async function startProcess(): Promise<ChildProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        DATABASE_URL: db.url!,
        WORKER_PORT: String(port),
        WORKER_HOST: '127.0.0.1',
        WORKER_POLL_SECONDS: '0.5',
        WEBHOOKS_ALLOW_LOOPBACK: 'true',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    children.push(child);
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null))?.status === 200,
      60_000,
    );
    return child;
  }

  beforeAll(async () => {
    db = await createTestDatabase({ kind: 'postgres', databaseUrl: DATABASE_URL! });
    receiver = await startReceiver();
    // Jobs copy the queue's policy when enqueued; retries are not what this test is about.
    await createJobBoss(db.database.jobsDb).updateQueue(Queue.WebhookDelivery, {
      name: Queue.WebhookDelivery,
      retryLimit: 2,
      retryDelay: 1,
      retryBackoff: false,
      expireInSeconds: 30,
    });
  }, 60_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver?.close();
    await db?.close();
  });

  test('SIGKILLed, then a change while none runs: a new process delivers it exactly once', async () => {
    const owner = await aUserWithOrganization(db.repos);
    await createWebhookEndpoint(
      {
        actor: { userId: owner.user.id },
        organizationId: owner.organization.id,
        url: receiver.url,
        eventTypes: ['component.created'],
        enabled: true,
      },
      {
        repos: db.repos,
        clock: { now: () => new Date() },
        ids: { newId: () => randomUUID() },
        webhookUrls: outboundUrlPolicy({ allowLoopback: true }),
      },
    );
    const first = await startProcess();
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const component = await aComponent(db.repos, {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    const mine = () => receiver.received.filter((r) => r.body.includes(component.id));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mine()).toEqual([]);

    await startProcess();
    await until(() => mine().length === 1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(mine().map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(['component.created']);
  }, 120_000);
});
