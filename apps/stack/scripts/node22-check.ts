/**
 * The production images run Node 22 while the test suites run on the machine's
 * Node: this starts `pnpm start`'s entry point under Node 22 (fetched by npx), in
 * a temporary folder on free ports, and drives one whole round trip against it
 * from outside (scripts/round-trip.ts): OAuth with the MCP SDK client, upload, the
 * presigned PUT, confirm, publish to prod, then /consume.
 *
 * Run (from apps/stack): node --conditions=source --import tsx scripts/node22-check.ts
 * (CI: .ci/run). NODE22_CHECK_RUNTIME overrides the npx package (default node@22).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { STACK_DIR } from '../test/topology/processes.js';
import { freeStackSettings } from '../test/topology/stack-settings.js';
import { roundTrip } from './round-trip.js';

const RUNTIME = process.env.NODE22_CHECK_RUNTIME ?? 'node@22';
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

  await roundTrip({ urls, workDir: root, label: 'node22-check', pass });
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
