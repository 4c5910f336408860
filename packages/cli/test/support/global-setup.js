import { execFileSync } from 'node:child_process';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import startChromium from '@cp/browser-testing/jest-global-setup';

/**
 * Builds dist/cpc.js once for the run (the tests run what `npm i -g` installs; files built it each
 * before, which parallel workers would do over each other), then starts the run's one Chromium.
 */
export default async function globalSetup(globalConfig, projectConfig) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: 'inherit' });
  return startChromium(globalConfig, projectConfig);
}
