import { randomUUID } from 'node:crypto';
import { readHostSdkFile } from '../src/host-sdk/host-sdk-file.js';
import { get, send } from './support/http-client.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/* GET /examples/host: the demo host page (its rendering in Chromium belongs to the SDK's browser tests). */

let stack: TestStack;
let delivery: Instance;

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack, { config: { publicUrl: 'https://api.example.test' } });
});
afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const page = async (query: string) => {
  const res = await get(delivery.url, `/examples/host${query}`);
  return { res, body: res.body.toString('utf8') };
};

test('without a component: 200, the form alone, under a strict CSP, never stored', async () => {
  const { res, body } = await page('');
  expect(res.status).toBe(200);
  expect(res.header('content-type')).toBe('text/html; charset=utf-8');
  expect(res.header('cache-control')).toBe('no-store');
  expect(res.header('x-content-type-options')).toBe('nosniff');
  const csp = res.header('content-security-policy')!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain('script-src \'self\' https://api.example.test');
  expect(body).toContain('<form class="pick" method="get" action="host">');
  expect(body).not.toContain('<cp-component');
  expect(body).not.toContain('<script');
});

test('with a component: the SDK loaded relative to the page, the snippet with the API\'s public URL, the element with its attributes, the data box and the log', async () => {
  const id = randomUUID();
  const { res, body } = await page(`?component=${id.toUpperCase()}&env=Staging&isolation=shadow&live=true`);
  expect(res.status).toBe(200);
  expect(body).toContain('<script type="module" src="../host/v1.js"></script>');
  expect(body).toContain('&lt;script type=&quot;module&quot; src=&quot;https://api.example.test/host/v1.js&quot;&gt;&lt;/script&gt;');
  expect(body).toContain(`<cp-component component-id="${id}" env="staging" isolation="shadow" live>`);
  expect(body).toContain('<textarea id="data"');
  expect(body).toContain('<ol id="log"');
  const sdk = readHostSdkFile();
  expect(body).toContain(`src=&quot;https://api.example.test/host/v1.${sdk.hash}.js&quot;`);
  expect(body).toContain(`integrity=&quot;${sdk.integrity}&quot;`);
  for (const event of ['cp-load', 'cp-error', 'cp-action']) expect(body).toContain(`'${event}'`);
  expect(body).toContain('element.data = data');
  // The form shows what is rendered.
  expect(body).toContain(`name="component" value="${id}"`);
  expect(body).toContain('<option value="shadow" selected>');
});

test('preview: the element asks for the latest variant instead of an environment; env defaults to prod', async () => {
  const id = randomUUID();
  expect((await page(`?component=${id}&preview=true`)).body).toContain(`<cp-component component-id="${id}" preview>`);
  expect((await page(`?component=${id}`)).body).toContain(`<cp-component component-id="${id}" env="prod">`);
});

test('empty fields (as the form submits them) count as absent', async () => {
  const { res, body } = await page('?component=&env=&isolation=');
  expect(res.status).toBe(200);
  expect(body).not.toContain('<cp-component');
});

test.each([
  ['component', `?component=${encodeURIComponent('"><script>alert(1)</script>')}`, 'component must be a component id'],
  ['env', `?component=${randomUUID()}&env=${encodeURIComponent('<img src=x onerror=alert(1)>')}`, 'is not an environment name'],
  ['an unknown parameter', `?${encodeURIComponent('<svg onload=alert(1)>')}=1`, 'Unknown parameter'],
])('an attack in %s: 400, the form with the reason, every reflected value escaped', async (_where, query, message) => {
  const { res, body } = await page(query);
  expect(res.status).toBe(400);
  expect(res.header('content-security-policy')).toContain("default-src 'none'");
  expect(body).toContain(message);
  expect(body).not.toMatch(/<script>alert|<img src=x|<svg onload/);
  expect(body).not.toContain('<cp-component');
  expect(body).toMatch(/&lt;(script|img|svg)/);
});

test('bad isolation or flags answer 400 naming the parameter', async () => {
  const id = randomUUID();
  expect((await page(`?component=${id}&isolation=frame`)).body).toContain('isolation must be &quot;iframe&quot; or &quot;shadow&quot;.');
  expect((await page(`?component=${id}&live=yes`)).body).toContain('live must be &quot;true&quot; or &quot;false&quot;.');
  expect((await page(`?component=${id}&component=${id}`)).body).toContain('given more than once');
});

test('HEAD answers the headers; POST is 405', async () => {
  const head = await send(delivery.url, '/examples/host', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
  expect((await send(delivery.url, '/examples/host', { method: 'POST' })).status).toBe(405);
});
