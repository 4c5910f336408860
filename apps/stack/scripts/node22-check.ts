/**
 * The production images run Node 22 while the test suites run on the machine's
 * Node: this starts `pnpm start`'s entry point under Node 22 (fetched by npx), in
 * a temporary folder on free ports, and drives one whole round trip against it
 * from outside, as a user's assistant and a host page would: OAuth (registration,
 * sign-up, consent, PKCE exchange) with the MCP SDK client, upload, the presigned
 * PUT with the returned curl command, confirm, publish to prod, then /consume.
 *
 * Run (from apps/stack): node --conditions=source --import tsx scripts/node22-check.ts
 * (CI: .ci/run). NODE22_CHECK_RUNTIME overrides the npx package (default node@22).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FormBrowser } from '../../auth-server/test/support/form-browser.js';
import { RecordingProvider } from '../../auth-server/test/support/sdk-provider.js';
import { STACK_DIR } from '../test/topology/processes.js';
import { freeStackSettings } from '../test/topology/stack-settings.js';

const RUNTIME = process.env.NODE22_CHECK_RUNTIME ?? 'node@22';
const exec = promisify(execFile);
const checks: string[] = [];
const pass = (what: string) => {
  checks.push(what);
  process.stdout.write(`node22-check: ok  ${what}\n`);
};

const root = await mkdtemp(join(tmpdir(), 'cp-node22-'));
const { urls, s3Port, settings } = await freeStackSettings();

// `node --version` first, from the same shell, so the check knows which Node it started.
const stack = spawn('npx', ['-y', '-p', RUNTIME, '-c', 'node --version && exec node --conditions=source --import tsx src/start.ts'], {
  cwd: STACK_DIR,
  env: { ...process.env, ...settings, STACK_ROOT: root, S3_EMBEDDED_PORT: String(s3Port), LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'pipe'],
  // Its own process group: npx, its shell and the stack stop together.
  detached: true,
});
let output = '';
stack.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));

try {
  const lines = createInterface({ input: stack.stdout });
  const started = new Promise<string>((resolve, reject) => {
    let version = '';
    lines.on('line', (line) => {
      output = (output + line + '\n').slice(-4000);
      if (version === '' && /^v\d+\./.test(line)) version = line.trim();
      if (line.startsWith('Component platform is running')) resolve(version);
    });
    stack.once('exit', (code) => reject(new Error(`the stack exited (${code}) before it was ready:\n${output}`)));
    setTimeout(() => reject(new Error(`the stack was not ready within 180 s:\n${output}`)), 180_000).unref();
  });
  const version = await started;
  if (!version.startsWith('v22.')) throw new Error(`expected Node 22, the stack runs ${version || 'an unknown version'}`);
  pass(`the stack started on Node ${version}`);

  const provider = new RecordingProvider('http://localhost:45123/callback');
  const connect = async () => {
    const client = new Client({ name: 'node22-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(urls.mcp), { authProvider: provider }));
    return client;
  };
  const refused = await connect().then(
    () => null,
    (error: unknown) => error,
  );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected the first connection to ask for authorization, got ${String(refused)}`);
  const browser = new FormBrowser();
  const login = await browser.open(provider.authorizationUrl!.href);
  const signupHref = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)?.[1];
  if (signupHref === undefined) throw new Error(`no sign-up link on the sign-in page (${login.url})`);
  const consent = await browser.submit(await browser.open(new URL(signupHref, urls.auth).href), { email: `node22-${Date.now()}@example.com`, password: 'correct horse battery staple' });
  const callback = new URL((await browser.submit(consent, { decision: 'allow' })).url);
  await new StreamableHTTPClientTransport(new URL(urls.mcp), { authProvider: provider }).finishAuth(callback.searchParams.get('code') ?? '');
  const client = await connect();
  pass('OAuth: registration, sign-up, consent, code exchange; the MCP client connects with the token');

  // Tool results and /consume are read as the shapes the contract gives, and checked where they matter.
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.structuredContent ?? result.content)}`);
    return result.structuredContent as T;
  };
  const html = `<!doctype html><html><head><title>Node 22</title></head><body><p>served by Node 22 ${Date.now()}</p></body></html>`;
  const upload = await call<{ uploadId: string; curlCommand: string }>('upload_component', { name: `Node 22 check ${Date.now()}` });
  const project = join(root, 'project');
  await mkdir(join(project, 'dist'), { recursive: true });
  await writeFile(join(project, 'dist', 'index.html'), html);
  await exec('sh', ['-c', upload.curlCommand], { cwd: project, timeout: 15_000 });
  const confirmed = await call<{ componentId: string; variantId: string; isNewComponent: boolean }>('confirm_upload', { uploadId: upload.uploadId });
  if (confirmed.isNewComponent !== true) throw new Error(`confirm_upload: ${JSON.stringify(confirmed)}`);
  pass(`upload_component, the presigned PUT, confirm_upload: component ${confirmed.componentId}`);

  await call('publish_component', { componentId: confirmed.componentId, environment: 'prod' });
  pass('publish_component to prod');

  const response = await fetch(`${urls.delivery}/consume?id=${confirmed.componentId}&env=prod`);
  const body = (await response.json()) as { item?: { consume_variant?: { id: string; loader?: { HTML?: string } }[] } };
  const variant = body?.item?.consume_variant?.[0];
  if (response.status !== 200 || variant?.id !== confirmed.variantId || variant?.loader?.HTML !== html) {
    throw new Error(`/consume answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
  }
  pass('GET /consume?env=prod serves the uploaded HTML');
  await client.close();
  process.stdout.write(`node22-check: ${checks.length} passed, 0 failed\n`);
} catch (error) {
  process.stderr.write(`node22-check: FAIL: ${error instanceof Error ? error.message : String(error)}\n`);
  process.stdout.write(`node22-check: ${checks.length} passed, 1 failed\n`);
  process.exitCode = 1;
} finally {
  if (stack.exitCode === null) {
    const exited = new Promise((resolve) => stack.once('exit', resolve));
    process.kill(-stack.pid!, 'SIGTERM');
    await exited;
  }
  await rm(root, { recursive: true, force: true });
}
