import process from 'node:process';
import { tsImport } from 'tsx/esm/api';

/*
 * jest globalSetup for packages with browser tests: starts the run's one Chromium
 * and hands its address to the test files through the environment (see
 * src/shared-chromium.ts). Plain JavaScript loading the TypeScript through tsx,
 * because jest loads this file outside its transform.
 */
export default async function startBrowser() {
  const { startSharedChromium, SHARED_CHROMIUM_ENV } = await tsImport('../src/shared-chromium.ts', import.meta.url);
  const server = await startSharedChromium();
  if (!server) return;
  process.env[SHARED_CHROMIUM_ENV] = server.wsEndpoint();
  globalThis.cpSharedChromium = server;
}
