import { createServer } from 'node:net';
import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, events, frameTexts, openProbed, waitForEvents, type SdkModule } from './support/sdk-probes.js';

/*
 * Failures: the delivery API's problems (real answers), a refused connection
 * (a real closed port), and where a failure cannot be produced on demand from
 * the real server (a dropped request, a 503, a malformed body), the browser's
 * request is intercepted; each such test says so.
 */

let harness: HostHarness;
let released: string;

beforeAll(async () => {
  harness = await startHostHarness();
  // Makes `prod` an environment of the organization, so the other components are simply not released there.
  released = (await harness.aComponent(componentHtml('Released'), 'prod')).componentId;
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

const SLOTS = '<div slot="loading" class="loading">Loading…</div><div slot="error" class="error">Failed</div>';

/** Opens an empty host page, lets `setup` intercept requests, then adds the element. */
async function mountElement(attributes: string, setup?: (page: Page) => Promise<unknown>) {
  const opened = await openProbed(harness, harness.hostPage(''), setup);
  await opened.page.evaluate((html) => (document.body.innerHTML = html), `<cp-component id="x" ${attributes}>${SLOTS}</cp-component>`);
  return opened;
}

async function countConsumeRequests(page: Page): Promise<() => number> {
  let count = 0;
  page.on('request', (request) => {
    if (request.url().includes('/consume?')) count++;
  });
  return () => count;
}

it('reports an unknown component as the API problem (404 Component), in the error slot, without retrying', async () => {
  let requests = (): number => 0;
  const { page } = await mountElement(`component-id="${crypto.randomUUID()}" env="prod"`, async (p) => {
    requests = await countConsumeRequests(p);
  });
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail.retrying).toBe(false);
  expect(error!.detail.problem).toMatchObject({ status: 404, code: 'NOT_FOUND', resource: 'Component' });
  expect(requests()).toBe(1);
  await page.locator('.error').waitFor({ state: 'visible' });
  expect(await page.locator('.loading').isVisible()).toBe(false);
  const rejected = await page.evaluate(() =>
    (document.getElementById('x') as HTMLElement & { ready: Promise<void> }).ready.then(
      () => null,
      (e: { name: string; problem: { code: string } }) => [e.name, e.problem.code],
    ),
  );
  expect(rejected).toEqual(['CpError', 'NOT_FOUND']);
});

it('reports a component not released to the environment (404 Release), and an unknown environment', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Unreleased'));
  const { page } = await mountElement(`component-id="${componentId}" env="prod"`);
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail).toMatchObject({ retrying: false, problem: { status: 404, code: 'NOT_FOUND', resource: 'Release' } });
  await page.locator('.error').waitFor({ state: 'visible' });

  await page.evaluate(() => document.getElementById('x')!.setAttribute('env', 'nowhere'));
  const errors = await waitForEvents(page, 'cp-error', 2);
  expect(errors[1]!.detail.problem).toMatchObject({ status: 404, code: 'NOT_FOUND', resource: 'Environment' });
});

it('retries when the network is down and renders once it is back', async () => {
  let refused = 0;
  // Simulated outage: the browser's first two /consume requests fail as a refused connection.
  const { page } = await mountElement(`component-id="${released}" env="prod"`, (p) =>
    p.route('**/consume?**', async (route) => {
      if (refused < 2) {
        refused++;
        await route.abort('connectionrefused');
      } else await route.continue();
    }),
  );
  const errors = await waitForEvents(page, 'cp-error', 2);
  expect(errors.map((e) => [e.detail.problem!.code, e.detail.problem!.status, e.detail.retrying])).toEqual([
    ['NETWORK', 0, true],
    ['NETWORK', 0, true],
  ]);
  await waitForEvents(page, 'cp-load');
  expect(await frameTexts(page)).toEqual(['Released']);
  expect(await page.locator('.error').isVisible()).toBe(false);
  expect(await events(page, 'cp-error')).toHaveLength(2);
});

it('gives up after its retries when the delivery API stays unreachable', async () => {
  // A real refused connection: a port that was free a moment ago.
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
  const { page } = await mountElement(`component-id="${released}" env="prod" base-url="http://127.0.0.1:${port}"`);
  const errors = await waitForEvents(page, 'cp-error', 5);
  expect(errors.map((e) => e.detail.retrying)).toEqual([true, true, true, true, false]);
  expect(errors[4]!.detail.problem).toMatchObject({ status: 0, code: 'NETWORK' });
  expect(errors[4]!.detail.problem!.detail).toContain(`127.0.0.1:${port}`);
  await page.locator('.error').waitFor({ state: 'visible' });
});

it('retries a 5xx after the Retry-After the server sent', async () => {
  const seen: number[] = [];
  // Simulated 503: the real server answers it only while its database is down, which cannot be undone in a test.
  const { page } = await mountElement(`component-id="${released}" env="prod"`, (p) =>
    p.route('**/consume?**', async (route) => {
      seen.push(Date.now());
      if (seen.length > 1) return route.continue();
      return route.fulfill({
        status: 503,
        headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1', 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Retry-After' },
        body: JSON.stringify({ type: '/problems/unavailable', title: 'Unavailable', status: 503, detail: 'Try again shortly.', code: 'UNAVAILABLE' }),
      });
    }),
  );
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail).toMatchObject({ retrying: true, problem: { status: 503, code: 'UNAVAILABLE' } });
  await waitForEvents(page, 'cp-load');
  expect(seen).toHaveLength(2);
  expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(950);
});

it('reports an answer that is not the /consume shape as BAD_RESPONSE, without retrying', async () => {
  // Simulated: the real API always answers its own shape; a proxy or a captive portal may not.
  const { page } = await mountElement(`component-id="${released}" env="prod"`, (p) =>
    p.route('**/consume?**', (route) =>
      route.fulfill({ status: 200, headers: { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' }, body: '{"item":{}}' }),
    ),
  );
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail).toMatchObject({ retrying: false, problem: { status: 0, code: 'BAD_RESPONSE' } });
});

it.each([
  ['no component-id', 'env="prod"', 'componentId is required'],
  ['an unknown isolation', `component-id="${crypto.randomUUID()}" isolation="popup"`, 'isolation must be'],
  ['allow-same-origin', `component-id="${crypto.randomUUID()}" sandbox="allow-forms allow-same-origin"`, 'allow-same-origin'],
  ['preview="false" without env', `component-id="${crypto.randomUUID()}" preview="false"`, 'preview: false needs env'],
  ['a relative base-url', `component-id="${crypto.randomUUID()}" base-url="/delivery"`, 'not an absolute URL'],
  ['a max-height that is not a number of pixels', `component-id="${crypto.randomUUID()}" max-height="tall"`, 'maxHeight must be a positive number of CSS pixels'],
  ['attributes that are not JSON', `component-id="${crypto.randomUUID()}" env="prod" attributes="{country: DE}"`, 'attributes must be an object of at most 20 names'],
  ['a key longer than 256 characters', `component-id="${crypto.randomUUID()}" env="prod" key="${'k'.repeat(257)}"`, 'key must be a string of at most 256 characters'],
])('refuses %s as INVALID_OPTIONS before any request', async (_name, attributes, message) => {
  let requests = (): number => 0;
  const { page } = await mountElement(attributes, async (p) => {
    requests = await countConsumeRequests(p);
  });
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail).toMatchObject({ retrying: false, problem: { status: 0, code: 'INVALID_OPTIONS' } });
  expect(error!.detail.problem!.detail).toContain(message);
  expect(requests()).toBe(0);
  await page.locator('.error').waitFor({ state: 'visible' });
});

it('refuses bad options given to mount() through ready and cp-error', async () => {
  const { page } = await openProbed(harness, harness.hostPage('<div id="target"></div>'));
  const result = await page.evaluate(async (base) => {
    const { mount } = (await import(`${base}/host/v1.js`)) as SdkModule;
    const handle = mount(document.getElementById('target')!, { componentId: 'x', isolation: 'shadow', sandbox: 'allow-forms' });
    return handle.ready.then(
      () => 'rendered',
      (error: { problem: { code: string; detail: string } }) => `${error.problem.code}: ${error.problem.detail}`,
    );
  }, harness.delivery.url);
  expect(result).toBe('INVALID_OPTIONS: sandbox applies to iframe isolation only.');
  expect(await events(page, 'cp-error')).toHaveLength(1);
});

it('refuses a nonce that is not a string', async () => {
  const { page } = await openProbed(harness, harness.hostPage('<div id="target"></div>'));
  const result = await page.evaluate(async (base) => {
    const { mount } = (await import(`${base}/host/v1.js`)) as SdkModule;
    const handle = mount(document.getElementById('target')!, { componentId: 'x', isolation: 'shadow', nonce: 42 as unknown as string });
    return handle.ready.then(
      () => 'rendered',
      (error: { problem: { code: string; detail: string } }) => `${error.problem.code}: ${error.problem.detail}`,
    );
  }, harness.delivery.url);
  expect(result).toBe("INVALID_OPTIONS: nonce must be the page's CSP nonce (a string), or left out.");
});
