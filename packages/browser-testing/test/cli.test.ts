import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { launchChromium } from '../src/index.js';

/* The entry point `pnpm test` runs first, as its own process. */
const cli = join(import.meta.dirname, '..', 'src', 'ensure-chromium-cli.ts');
const runCli = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli], { env: { ...process.env, NODE_OPTIONS: '', ...env }, encoding: 'utf8' });

test('a CHROMIUM_PATH that names a missing file stops the run with one line saying what to do', () => {
  const result = runCli({ CHROMIUM_PATH: '/nonexistent/chromium' });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toEqual([
    "Chromium not found at /nonexistent/chromium (CHROMIUM_PATH): point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's /usr/bin/chromium.",
  ]);
});

test('an executable CHROMIUM_PATH passes without installing anything', () => {
  const result = runCli({ CHROMIUM_PATH: process.execPath });
  expect(result).toMatchObject({ status: 0, stdout: '', stderr: '' });
});

test('launching with a missing browser fails with the same message, not playwright’s', async () => {
  await expect(launchChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).rejects.toThrow(/^Chromium not found at \/nonexistent\/chromium \(CHROMIUM_PATH\)/);
});
