/**
 * `pnpm test` runs this first: the browser tests need Chromium, and a fresh
 * machine has none. Exits 1 with one line saying what to run when it cannot
 * install it itself.
 */
import { isExecutable } from './chromium.js';
import { thisSystem } from './debian-package.js';
import { ensureChromium } from './ensure-chromium.js';

const result = ensureChromium({ ...thisSystem, env: process.env, isExecutable, log: (line) => process.stdout.write(`${line}\n`) });
if (!result.ok) {
  process.stderr.write(`${result.message}\n`);
  process.exit(1);
}
