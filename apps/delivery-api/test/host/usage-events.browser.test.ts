import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, openProbed, until, waitForEvents, type SdkModule } from './support/sdk-probes.js';

/*
 * Usage events from the SDK, in Chromium, to a real HTTP collector on its own port (the
 * delivery API's ingest endpoint is built apart): the page gives it as `events-url`.
 * Each test flushes the queue without its timer: by unmounting (removing the element),
 * by leaving the page (pagehide), or by reaching a full batch.
 */

declare global {
  interface Window {
    sdk: SdkModule;
  }
}

interface Received {
  readonly method: string;
  readonly contentType: string | undefined;
  readonly raw: string;
  readonly body: { v: number; events: Record<string, unknown>[] } | null;
}

let harness: HostHarness;
let collector: Server;
let eventsUrl: string;
let received: Received[] = [];
const SDK_VERSION = (JSON.parse(readFileSync(new URL('../../../../packages/host/package.json', import.meta.url), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  harness = await startHostHarness();
  collector = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      let body: Received['body'] = null;
      try {
        body = JSON.parse(raw) as Received['body'];
      } catch {
        // Kept as null: the test fails on it.
      }
      if (req.url === '/v1/events') received.push({ method: req.method ?? '', contentType: req.headers['content-type'], raw, body });
      res.writeHead(req.method === 'POST' ? 202 : 404, { 'Access-Control-Allow-Origin': '*' }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  eventsUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
}, 120_000);

beforeEach(() => {
  received = [];
});

afterAll(async () => {
  collector?.closeAllConnections();
  await new Promise((resolve) => collector?.close(resolve));
  await harness?.close();
});

const events = (): Record<string, unknown>[] => received.flatMap((request) => request.body?.events ?? []);
const of = (componentId: string): Record<string, unknown>[] => events().filter((event) => event.component === componentId);

/** A component that reports once loaded: an action with a payload, then a throw and a rejection, then `done`. */
const failing = (label: string): string =>
  componentHtml(
    label,
    `{
  const send = cpSend;
  setTimeout(() => send('picked', { secret: 'PAYLOAD-SECRET' }), 50);
  setTimeout(() => { Promise.reject(new RangeError('${label} rejected')); throw new TypeError('${label} failed'); }, 100);
  setTimeout(() => send('done', {}), 200);
}`,
  );

/** A host page that imports the SDK as `window.sdk` and holds `body`. */
async function openHost(body: string, path = ''): Promise<Page> {
  const url = harness.page(`<!doctype html><html><body>${body}
<script type="module">window.sdk = await import('${harness.delivery.url}/host/v1.js');</script></body></html>`);
  const { page } = await openProbed(harness, `${url}${path}`);
  await page.waitForFunction(() => window.sdk !== undefined);
  return page;
}

const element = (id: string, componentId: string, attributes = '', to = eventsUrl): string =>
  `<cp-component id="${id}" component-id="${componentId}" env="prod" events-url="${to}" ${attributes}></cp-component>`;

const remove = (page: Page, id: string): Promise<void> => page.evaluate((which) => document.getElementById(which)!.remove(), id);

const KEYS = ['type', 'name', 'component', 'env', 'variant', 'isolation', 'sdk', 'host', 'session', 'seq', 'rate', 'ms', 'cache', 'error'];

/** The schema, wire format v1: what the delivery API will accept. */
function schemaProblems(event: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const expectThat = (ok: boolean, what: string): void => void (ok || problems.push(`${what}: ${JSON.stringify(event)}`));
  expectThat(Object.keys(event).every((key) => KEYS.includes(key)), 'only the schema fields');
  expectThat(['load', 'render', 'error', 'interaction', 'vital'].includes(event.type as string), 'type');
  expectThat(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/.test(event.component as string), 'component');
  expectThat(event.env === null || (typeof event.env === 'string' && event.env !== ''), 'env');
  expectThat(typeof event.variant === 'string' || event.variant === null, 'variant');
  expectThat(event.isolation === 'iframe' || event.isolation === 'shadow', 'isolation');
  expectThat(event.sdk === SDK_VERSION, 'sdk');
  expectThat(event.host === 'localhost', 'host');
  expectThat(/^[\w-]{22}$/.test(event.session as string), 'session');
  expectThat(Number.isInteger(event.seq) && (event.seq as number) >= 0, 'seq');
  expectThat(typeof event.rate === 'number' && event.rate > 0 && event.rate <= 1, 'rate');
  const timed = event.type === 'load' || event.type === 'render' || event.type === 'vital';
  expectThat(timed ? typeof event.ms === 'number' && event.ms >= 0 : !('ms' in event), 'ms');
  expectThat(event.type === 'load' ? typeof event.cache === 'boolean' : !('cache' in event), 'cache');
  const names: Record<string, (name: string) => boolean> = {
    load: (name) => name === 'consume',
    render: (name) => name === 'ready',
    error: (name) => ['sdk', 'uncaught', 'rejection'].includes(name),
    interaction: (name) => name.length > 0 && name.length <= 64,
    vital: (name) => ['LCP', 'INP', 'CLS'].includes(name),
  };
  expectThat(typeof event.name === 'string' && !!names[event.type as string]?.(event.name), 'name');
  if (event.type === 'error') {
    const error = event.error as Record<string, unknown> | undefined;
    expectThat(!!error && Object.keys(error).sort().join() === 'class,message,stack', 'error fields');
    expectThat(typeof error?.class === 'string' && error.class.length <= 64, 'error.class');
    expectThat(typeof error?.message === 'string' && error.message.length <= 200, 'error.message');
    expectThat(/^[\da-f]{8}$/.test(error?.stack as string), 'error.stack');
  } else {
    expectThat(!('error' in event), 'no error outside error events');
  }
  return problems;
}

it('sends load, render, interaction and error events of an iframe and a shadow component, in the schema, without payload, data or path', async () => {
  const frame = await harness.aComponent(failing('Frame'), 'prod');
  const shadow = await harness.aComponent(failing('Shadow'), 'prod');
  const page = await openHost(
    `${element('frame', frame.componentId)}${element('shadow', shadow.componentId, 'isolation="shadow"')}
<script>for (const e of document.querySelectorAll('cp-component')) e.data = { secret: 'DATA-SECRET' };</script>`,
    '?token=PATH-SECRET',
  );
  // `done` follows the failures in a later task: both are recorded by then.
  await waitForEvents(page, 'cp-action', 4);
  await page.waitForFunction(() => window.sdkEvents.filter((event) => event.detail.action === 'done').length === 2);
  expect(received).toEqual([]); // nothing before a flush: the batch waits (its timer is long)

  await page.goto('about:blank'); // pagehide flushes
  await until(() => of(frame.componentId).length >= 6 && of(shadow.componentId).length >= 6);

  for (const request of received) {
    expect([request.method, request.contentType]).toEqual(['POST', 'text/plain;charset=UTF-8']);
    expect(request.body?.v).toBe(1);
    expect(request.raw).not.toMatch(/PAYLOAD-SECRET|DATA-SECRET|PATH-SECRET|page-\d/);
  }
  expect(events().flatMap(schemaProblems)).toEqual([]);
  for (const [{ componentId, variantId }, isolation, label] of [
    [frame, 'iframe', 'Frame'],
    [shadow, 'shadow', 'Shadow'],
  ] as const) {
    const mine = of(componentId);
    expect(mine.map((event) => `${String(event.type)}:${String(event.name)}`).sort()).toEqual(
      ['error:rejection', 'error:uncaught', 'interaction:done', 'interaction:picked', 'load:consume', 'render:ready'].sort(),
    );
    expect(new Set(mine.map((event) => [event.env, event.variant, event.isolation, event.rate].join()))).toEqual(new Set([['prod', variantId, isolation, 1].join()]));
    const errors = mine.filter((event) => event.type === 'error').map((event) => [event.name, (event.error as { class: string; message: string }).class, (event.error as { message: string }).message]);
    expect(errors.sort()).toEqual([
      ['rejection', 'RangeError', `${label} rejected`],
      ['uncaught', 'TypeError', `${label} failed`],
    ]);
  }
  // One session for the page; each event its own number in it.
  expect(new Set(events().map((event) => event.session)).size).toBe(1);
  const seqs = events().map((event) => event.seq as number);
  expect(new Set(seqs).size).toBe(seqs.length);
});

it('with no events-url, events go to the delivery API the SDK came from and land in the rollups, one per event sent', async () => {
  const { componentId, variantId } = await harness.aComponent(failing('Delivered'), 'prod');
  const page = await openHost(`<cp-component id="delivered" component-id="${componentId}" env="prod"></cp-component>`);
  await page.waitForFunction(() => window.sdkEvents.filter((event) => event.detail.action === 'done').length === 1);
  await remove(page, 'delivered'); // its unmount flushes the page's queue
  const rows = () =>
    harness.stack.sql.rows<{ type: string; name: string; count: number }>({
      text: 'SELECT "type", "name", "count"::int AS count FROM "usage"."minutes" WHERE "component_id" = $1 AND "variant_id" = $2 AND "type" <> $3 ORDER BY 1, 2',
      values: [componentId, variantId, 'served'],
    });
  // The keepalive POST is in flight after the unmount: written once it has arrived.
  for (let tries = 0; tries < 100 && (await rows()).length < 6; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await harness.delivery.app.usage.flush();
  }
  expect(await rows()).toEqual([
    { type: 'error', name: 'rejection', count: 1 },
    { type: 'error', name: 'uncaught', count: 1 },
    { type: 'interaction', name: 'done', count: 1 },
    { type: 'interaction', name: 'picked', count: 1 },
    { type: 'load', name: 'consume', count: 1 },
    { type: 'render', name: 'ready', count: 1 },
  ]);
  expect(received).toEqual([]); // nothing went to the collector
});

it('an event queued as the page navigates away arrives (the pagehide flush)', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Leaving', `cpSend('leave', { secret: 'PAYLOAD-SECRET' });`), 'prod');
  // The page leaves as the action is reported, before its usage event is queued; nothing waits on the SDK here.
  const { page } = await harness.open(
    harness.hostPage(`${element('leaving', componentId)}<script>document.addEventListener('cp-action', () => location.assign('about:blank'));</script>`),
  );
  await page.waitForURL('about:blank');
  // Nothing else could send it: no unmount, no full batch, and the batch's timer went with the page.
  await until(() => of(componentId).some((event) => event.type === 'interaction' && event.name === 'leave'));
  expect(of(componentId).flatMap(schemaProblems)).toEqual([]);
});

it('analytics="consent": nothing is sent before consent(true), the held events after it', async () => {
  const asking = await harness.aComponent(componentHtml('Asking'), 'prod');
  const control = await harness.aComponent(componentHtml('Control'), 'prod');
  const page = await openHost(`${element('asking', asking.componentId, 'analytics="consent"')}${element('control', control.componentId)}`);
  await waitForEvents(page, 'cp-load', 2);
  await remove(page, 'control'); // its unmount flushes the page's queue
  await until(() => of(control.componentId).length === 2);
  await remove(page, 'asking');
  expect(of(asking.componentId)).toEqual([]);

  await page.evaluate(() => window.sdk.consent(true)); // sends what was held at once
  await until(() => of(asking.componentId).length === 2);
  expect(of(asking.componentId).map((event) => event.type).sort()).toEqual(['load', 'render']);
  expect(of(asking.componentId).flatMap(schemaProblems)).toEqual([]);
  expect(await page.evaluate(() => window.sdk.droppedEvents())).toBe(0);
});

it('consent(false) discards the held events; analytics="off" and sample-rate="0" send nothing', async () => {
  const asking = await harness.aComponent(componentHtml('Refused'), 'prod');
  const off = await harness.aComponent(componentHtml('Off'), 'prod');
  const unsampled = await harness.aComponent(componentHtml('Unsampled'), 'prod');
  const control = await harness.aComponent(componentHtml('Counted'), 'prod');
  const page = await openHost(
    `${element('asking', asking.componentId, 'analytics="consent"')}${element('off', off.componentId, 'analytics="off"')}` +
      `${element('unsampled', unsampled.componentId, 'sample-rate="0"')}${element('control', control.componentId)}`,
  );
  await waitForEvents(page, 'cp-load', 4);
  await page.evaluate(() => window.sdk.consent(false));
  await page.evaluate(() => window.sdk.consent(true)); // too late for what was discarded
  await page.evaluate(() => document.body.replaceChildren());
  await until(() => of(control.componentId).length === 2);
  expect(events().map((event) => event.component)).toEqual([control.componentId, control.componentId]);
});

it('sends a full batch at once: 50 events in one request', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Chatty', `for (let i = 0; i < 48; i++) cpSend('tick-' + i, { i });`), 'prod');
  const page = await openHost(element('chatty', componentId));
  await until(() => received.length > 0);
  expect(received).toHaveLength(1);
  expect(received[0]!.body?.events).toHaveLength(50);
  expect(received[0]!.body!.events.flatMap(schemaProblems)).toEqual([]);
  expect(await page.locator('#chatty').count()).toBe(1); // still mounted: no unmount flushed it
});

it('refuses bad analytics options with INVALID_OPTIONS', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Options'), 'prod');
  const page = await openHost(
    `${element('analytics', componentId, 'analytics="maybe"')}${element('rate', componentId, 'sample-rate="2"')}${element('url', componentId, '', '/relative')}`,
  );
  const errors = await waitForEvents(page, 'cp-error', 3);
  expect(errors.map((error) => [error.target, error.detail.problem?.code, error.detail.problem?.detail]).sort()).toEqual([
    ['analytics', 'INVALID_OPTIONS', 'analytics must be "on", "off" or "consent", not "maybe".'],
    ['rate', 'INVALID_OPTIONS', 'sampleRate must be a number from 0 to 1, not 2.'],
    ['url', 'INVALID_OPTIONS', 'eventsUrl "/relative" is not an absolute URL.'],
  ]);
});
