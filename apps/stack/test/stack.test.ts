import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type RunningStack } from '../src/stack.js';
import { startOnFreePorts, type StackUrls } from './topology/stack-settings.js';

// The embedded `pnpm start`, in a temporary folder on free ports: every service
// answers, and they are wired to each other as in production.
describe('the embedded stack', () => {
  let root: string;
  let stack: RunningStack;
  let urls: StackUrls;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'cp-stack-'));
    const { free, started } = await startOnFreePorts((free) => startStack({ root, s3Port: free.s3Port, source: free.settings }));
    urls = free.urls;
    stack = started;
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await rm(root, { recursive: true, force: true });
  });

  test('every service answers its health check', async () => {
    const health = await Promise.all(
      [urls.auth, new URL(urls.mcp).origin, urls.delivery, urls.worker].map(async (url) => (await fetch(`${url}/`)).json()),
    );
    expect(health).toEqual([
      expect.objectContaining({ status: 'ok', server: 'component-platform-auth' }),
      expect.objectContaining({ status: 'ok', server: 'component-tool-server' }),
      expect.objectContaining({ status: 'ok', server: 'delivery-api' }),
      { status: 'ok', queues: ['webhook-delivery', 'usage-rollup', 'usage-retention', 'rollout-guard', 'static-export'] },
    ]);
    expect(stack.services.map((service) => service.name)).toEqual(['Auth server', 'MCP server', 'Delivery API', 'Dashboard', 'Worker']);
  });

  test('the MCP server sends clients to this auth server, which issues tokens for this MCP server', async () => {
    const resource = (await (await fetch(`${new URL(urls.mcp).origin}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    const discovery = (await (await fetch(`${urls.auth}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
    expect(resource.resource).toBe(urls.mcp);
    expect(resource.authorization_servers).toEqual([discovery.issuer]);
    const unauthenticated = await fetch(urls.mcp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unauthenticated.status).toBe(401);
  });

  test('the dashboard sends a signed-out visitor to the auth server to sign in', async () => {
    const response = await fetch(`${urls.dashboard}/`, { redirect: 'manual' });
    expect(response.status).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(400);
    const location = new URL(response.headers.get('location')!, urls.dashboard);
    const next = location.origin === urls.auth ? location : new URL((await fetch(location, { redirect: 'manual' })).headers.get('location')!);
    expect(next.origin).toBe(urls.auth);
  });

  test('delivery answers from the same database', async () => {
    const response = await fetch(`${urls.delivery}/consume?id=00000000-0000-4000-8000-000000000000`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });
});
