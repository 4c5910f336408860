/**
 * `pnpm test` runs this first: the browser tests need Chromium, and a fresh
 * machine has none. Exits 1 with one line saying what to run when it cannot
 * install it itself.
 */
import { spawnSync } from 'node:child_process';
import { isExecutable } from './chromium.js';
import { ensureChromium } from './ensure-chromium.js';

const result = ensureChromium({
  env: process.env,
  isRoot: process.getuid?.() === 0,
  has: (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0,
  isExecutable,
  run: (command, args) => spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0,
  log: (line) => process.stdout.write(`${line}\n`),
});
if (!result.ok) {
  process.stderr.write(`${result.message}\n`);
  process.exit(1);
}
