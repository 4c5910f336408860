import { launchChromium, type Browser } from '@cp/browser-testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { defaultDeviceFlow } from '../../src/config.js';
import { deviceAuthorization, pollUntilDecided } from '../support/device-client.js';
import { PASSWORD } from '../support/flow.js';
import { startAuthServer, type AuthHarness } from '../support/harness.js';

/*
 * Device login in headless Chromium (the run's shared browser, as pages.browser.test.ts),
 * without JavaScript, like the pages: the CLI's side by hand, the person at the keyboard.
 */

let auth: AuthHarness;
let browser: Browser;
beforeAll(async () => {
  auth = await startAuthServer({ config: { deviceFlow: { ...defaultDeviceFlow, intervalSeconds: 1 } } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await auth?.close();
});

test('a person types the code, sees the device name, creates an account, confirms, sees the done page; the polling CLI gets its tokens', async () => {
  const { json: started } = await deviceAuthorization(auth.issuer, { device_name: 'cpc on chromium-box' });
  const tokens = pollUntilDecided(auth.issuer, started.device_code, started.interval);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(started.verification_uri);
  await expect(page.getByRole('heading', { name: 'Connect a device' }).isVisible()).resolves.toBe(true);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('user_code');
  await page.getByLabel('Code').fill(started.user_code.toLowerCase().replace('-', ''));
  await page.getByLabel('Code').press('Enter');

  await expect(page.getByRole('heading', { name: 'Connect this device?' }).isVisible()).resolves.toBe(true);
  await expect(page.getByText('cpc on chromium-box').isVisible()).resolves.toBe(true);
  await expect(page.getByText(started.user_code).isVisible()).resolves.toBe(true);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Not signed in: the sign-in page of the platform, and from it a new account.
  await page.waitForURL(/\/interaction\//);
  await page.getByRole('link', { name: 'Create an account' }).click();
  const email = `device-${Date.now()}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');

  await expect(page.getByRole('heading', { name: 'Connect this device?' }).isVisible()).resolves.toBe(true);
  await expect(page.getByText('cpc on chromium-box').isVisible()).resolves.toBe(true);
  await expect(page.getByText(`Signed in as ${email}.`).isVisible()).resolves.toBe(true);
  await expect(page.getByText('mcp:write').isVisible()).resolves.toBe(true);
  await page.getByRole('button', { name: 'Allow' }).click();

  await expect(page.getByRole('heading', { name: 'Device connected' }).isVisible()).resolves.toBe(true);
  await expect(page.getByText('cpc on chromium-box').isVisible()).resolves.toBe(true);

  const answer = await tokens;
  expect(answer.status).toBe(200);
  const { payload } = await jwtVerify(answer.json.access_token, createRemoteJWKSet(new URL(`${auth.issuer}/jwks`)), {
    issuer: auth.issuer,
    audience: auth.config.mcpResourceUrl,
  });
  expect(payload).toMatchObject({ client_id: 'cpc', scope: 'mcp:read mcp:write' });

  await page.goto(`${auth.issuer}/account`);
  await expect(page.getByRole('row', { name: /cpc/ }).isVisible()).resolves.toBe(true);
  await context.close();
}, 60_000);
