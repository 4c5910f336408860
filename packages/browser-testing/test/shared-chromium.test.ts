import type { BrowserServer } from 'playwright-core';
import { launchChromium } from '../src/index.js';
import { SHARED_CHROMIUM_ENV, startSharedChromium } from '../src/shared-chromium.js';

/* What jest's global setup starts once per run, and what each browser test file gets from it. */
let server: BrowserServer | null;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startSharedChromium();
  if (!server) throw new Error('Chromium is missing: run `pnpm --filter @cp/browser-testing ensure-chromium`');
  env = { [SHARED_CHROMIUM_ENV]: server.wsEndpoint() };
});
afterAll(async () => {
  await server?.close();
});

test('each file connects to the shared browser; closing its connection leaves the browser to the next file', async () => {
  const first = await launchChromium(env);
  const context = await first.newContext();
  const page = await context.newPage();
  await page.setContent('<p id="x">first file</p>');
  expect(await page.textContent('#x')).toBe('first file');
  await first.close();
  expect(page.isClosed()).toBe(true);

  const second = await launchChromium(env);
  const page2 = await (await second.newContext()).newPage();
  await page2.setContent('<p id="x">second file</p>');
  expect(await page2.textContent('#x')).toBe('second file');
  await second.close();
});

test('a file uses the address the global setup left, not a browser of its own', async () => {
  await expect(launchChromium({ [SHARED_CHROMIUM_ENV]: 'ws://127.0.0.1:9/no-browser-here' })).rejects.toThrow(
    /connect/,
  );
});

test('with Chromium missing there is nothing to share: each file then fails with the message saying what to install', async () => {
  expect(await startSharedChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).toBeNull();
});
