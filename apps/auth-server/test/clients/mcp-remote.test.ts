/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call -- JSON-RPC responses, checked by assertions */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { freePort } from '@cp/http-runtime/testing';
import { FormBrowser } from '../support/form-browser.js';
import { PASSWORD } from '../support/flow.js';
import { startStack, type Stack } from '../support/mcp-stack.js';

/*
 * mcp-remote (the npm bridge for clients that cannot do OAuth themselves) against
 * the auth and MCP servers. It needs Node 22, which npx fetches from the npm
 * registry. The test plays the person at the browser: it reads the authorization
 * URL mcp-remote prints, signs up and allows through the HTML forms, and delivers
 * the redirect to mcp-remote's loopback callback.
 */
const MCP_REMOTE = 'mcp-remote@0.15.1';

let db: TestDatabase;
let stack: Stack;
let configDir: string;
let child: ChildProcessWithoutNullStreams | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  stack = await startStack(db);
  configDir = await mkdtemp(join(tmpdir(), 'mcp-remote-'));
}, 120_000);
afterAll(async () => {
  if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  await stack?.close();
  await db?.close();
  await rm(configDir, { recursive: true, force: true });
});

test('mcp-remote registers, completes the authorization and lists the tools', async () => {
  const port = await freePort();
  child = spawn('npx', ['-y', '-p', 'node@22', '-p', MCP_REMOTE, '-c', `mcp-remote ${stack.mcpUrl} ${port}`], {
    detached: true,
    // BROWSER=true: the "browser" mcp-remote launches is a no-op; the test is the browser.
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: 'true', DISPLAY: '', NODE_OPTIONS: '' },
  });
  const stderr: string[] = [];
  const authorizationUrl = new Promise<string>((resolve, reject) => {
    createInterface({ input: child!.stderr }).on('line', (line) => {
      stderr.push(line);
      const match = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child!.on('exit', (code) => reject(new Error(`mcp-remote exited (${code}):\n${stderr.join('\n')}`)));
  });
  const responses = new Map<number, unknown>();
  const waiters = new Map<number, (message: unknown) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number };
    if (typeof message.id !== 'number') return;
    responses.set(message.id, message);
    waiters.get(message.id)?.(message);
  });
  const request = (id: number, method: string, params: unknown = {}) => {
    child!.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return new Promise<any>((resolve) => (responses.has(id) ? resolve(responses.get(id)) : waiters.set(id, resolve)));
  };

  // The browser step: sign up from the sign-in page, allow, follow the redirect to mcp-remote.
  const url = await authorizationUrl;
  expect(new URL(url).searchParams.get('redirect_uri')).toBe(`http://localhost:${port}/oauth/callback`);
  const browser = new FormBrowser();
  const login = await browser.open(url);
  const signupHref = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)![1]!;
  const consent = await browser.submit(await browser.open(new URL(signupHref, stack.auth.issuer).href), {
    email: `mcp-remote-${Date.now()}@example.com`,
    password: PASSWORD,
  });
  expect(consent.html).toContain('Allow');
  const callback = await browser.submit(consent, { decision: 'allow' });
  expect(callback.url).toMatch(new RegExp(`^http://localhost:${port}/oauth/callback\\?code=`));
  expect((await fetch(callback.url)).status).toBeLessThan(400);

  const init = await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'auth-e2e', version: '1.0.0' } });
  expect(init.result.serverInfo.name).toEqual(expect.any(String));
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const tools = await request(2, 'tools/list');
  expect(tools.result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['whoami', 'list_components', 'upload_component']));
  const whoami = await request(3, 'tools/call', { name: 'whoami', arguments: {} });
  expect(whoami.result.structuredContent).toMatchObject({ authenticated: true, scope: 'mcp:read mcp:write' });
}, 180_000);
