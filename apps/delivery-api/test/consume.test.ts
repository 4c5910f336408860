import { createHash } from 'node:crypto';
import { get, send } from './support/http-client.js';
import { aUser, publish, SMALL_PAGE, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

let stack: TestStack;
let delivery: Instance;
let actor: { userId: string };
let componentId: string;
let v1: string;
let v2: string;
const V2_PAGE = SMALL_PAGE.replace('Hello', 'Hello again');

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack);
  ({ actor } = await aUser(stack.domain));
  const first = await upload(stack.domain, actor, { name: 'Card' });
  componentId = first.componentId;
  v1 = first.variantId;
  await publish(stack.domain, actor, componentId, 'prod');
  v2 = (await upload(stack.domain, actor, { componentId, html: V2_PAGE })).variantId;
});

afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const consume = (query: string, headers: Record<string, string> = {}) => get(delivery.url, `/consume?${query}`, headers);

describe('choosing the variant', () => {
  it('with env: the variant released there', async () => {
    const res = await consume(`id=${componentId}&env=prod`);
    expect(res.status).toBe(200);
    const { item } = res.json();
    expect(item).toMatchObject({ id: componentId, name: 'Card', organizationId: expect.any(String) });
    expect(item.consume_variant).toHaveLength(1);
    expect(item.consume_variant[0]).toMatchObject({ id: v1, name: 'v1' });
    expect(item.consume_variant[0].loader.HTML).toBe(SMALL_PAGE);
  });

  it('with only id: the latest variant (preview)', async () => {
    const { item } = (await consume(`id=${componentId}`)).json();
    expect(item.consume_variant[0]).toMatchObject({ id: v2, name: 'v2' });
    expect(item.consume_variant[0].loader.HTML).toBe(V2_PAGE);
  });

  it('preview=true: the latest, also together with env', async () => {
    for (const query of [`id=${componentId}&preview=true`, `id=${componentId}&env=prod&preview=true`, `id=${componentId}&env=staging&preview=true`]) {
      const res = await consume(query);
      expect(res.status).toBe(200);
      expect(res.json().item.consume_variant[0].id).toBe(v2);
      expect(res.header('cache-control')).toBe('no-cache');
    }
  });

  it('env with preview=false: the released variant', async () => {
    const res = await consume(`id=${componentId}&env=prod&preview=false`);
    expect(res.json().item.consume_variant[0].id).toBe(v1);
  });

  it('preview=false without env: 400 saying env is needed', async () => {
    const res = await consume(`id=${componentId}&preview=false`);
    expect(res.status).toBe(400);
    expect(res.json().detail).toMatch(/preview=false needs env/);
  });

  it('environment names are compared lower-case', async () => {
    const res = await consume(`id=${componentId}&env=PROD`);
    expect(res.status).toBe(200);
    expect(res.json().item.consume_variant[0].id).toBe(v1);
  });

  it('upper-case ids name the same component', async () => {
    const res = await consume(`id=${componentId.toUpperCase()}&env=prod`);
    expect(res.status).toBe(200);
    expect(res.json().item.id).toBe(componentId);
  });
});

describe('not found', () => {
  it('an unknown component: 404, resource Component', async () => {
    const res = await consume('id=00000000-0000-4000-8000-000000000000&env=prod');
    expect(res.status).toBe(404);
    expect(res.header('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', resource: 'Component', type: '/problems/not-found', title: 'Not Found' });
    expect(res.json().detail).toMatch(/Component "00000000-0000-4000-8000-000000000000" was not found/);
  });

  it('nothing released to the environment: 404, resource Release, message says to publish', async () => {
    const res = await consume(`id=${componentId}&env=staging`);
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ resource: 'Release' });
    expect(res.json().detail).toMatch(/no release in "staging".*Publish/);
  });

  it('an environment the organization does not have: 404, resource Environment, listing the known ones', async () => {
    const res = await consume(`id=${componentId}&env=qa`);
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ resource: 'Environment' });
    expect(res.json().detail).toMatch(/Known environments: prod, staging/);
  });

  it('a malformed id: 404 without echoing all of it', async () => {
    const long = 'x'.repeat(10 * 1024);
    const res = await consume(`id=${long}`);
    expect(res.status).toBe(404);
    expect(res.json().resource).toBe('Component');
    expect(res.body.length).toBeLessThan(500);
  });

  it('errors are not cacheable and carry CORS', async () => {
    const res = await consume('id=nope');
    expect(res.header('cache-control')).toBe('no-store');
    expect(res.header('access-control-allow-origin')).toBe('*');
  });
});

describe('bad input', () => {
  it.each([
    ['', /id is required/],
    ['env=prod', /id is required/],
    ['id=', /id must not be empty/],
    ['id', /id must not be empty/],
    ['id[]=abc', /Unknown parameter "id\[\]"/],
    ['id[0]=abc', /Unknown parameter "id\[0\]"/],
    ['id=a&id=b', /"id" was given more than once/],
    [`id=abc&env=prod&env=staging`, /"env" was given more than once/],
    ['id=abc&evn=prod', /Unknown parameter "evn".*accepts id, env, preview, arm, rev, key, attr\.<name>\./],
    ['id=abc&preview=yes', /preview must be "true" or "false"/],
    ['id=abc&preview=TRUE', /preview must be "true" or "false"/],
    ['id=abc&env=', /not an environment name/],
    ['id=abc&env=pr%20od', /not an environment name/],
    ['id=abc&env=%F0%9F%98%80', /not an environment name/],
  ])('?%s: 400', async (query, message) => {
    const res = await consume(query);
    expect(res.status).toBe(400);
    expect(res.header('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_INPUT', title: 'Bad Request' });
    expect(res.json().detail).toMatch(message);
  });

  it.each([
    ['unicode', 'id=%C3%A9t%C3%A9'],
    ['an encoded NUL', 'id=%00'],
    ['a broken percent-encoding', 'id=%E0%A4%A'],
    ['double encoding', `id=${encodeURIComponent(encodeURIComponent(componentId))}`],
    ['an encoded quote and angle brackets', 'id=%22%3Cscript%3E'],
    ['a plus-encoded space', `id=${componentId}+`],
  ])('%s in the id: 404, never 500', async (_name, query) => {
    const res = await consume(query);
    expect(res.status).toBe(404);
    expect(res.json().resource).toBe('Component');
  });

  it('a percent-encoded parameter name is the parameter', async () => {
    const res = await consume(`%69%64=${componentId}&env=prod`);
    expect(res.status).toBe(200);
  });
});

describe('methods', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s: 405 with Allow', async (method) => {
    const res = await send(delivery.url, `/consume?id=${componentId}`, { method });
    expect(res.status).toBe(405);
    expect(res.header('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('HEAD: the headers of GET, no body', async () => {
    const getRes = await consume(`id=${componentId}&env=prod`);
    const head = await send(delivery.url, `/consume?id=${componentId}&env=prod`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.header('content-length')).toBe(getRes.header('content-length'));
    expect(head.header('etag')).toBe(getRes.header('etag'));
  });
});

describe('the loader', () => {
  it('carries the HTML, its SRI hash, and the styles and scripts found by parsing it', async () => {
    const { loader } = (await consume(`id=${componentId}&env=prod`)).json().item.consume_variant[0];
    expect(loader).toEqual({
      type: 'HTMLLoader',
      HTML: SMALL_PAGE,
      shadowRootMode: 'open',
      autoHeight: true,
      integrity: `sha384-${createHash('sha384').update(SMALL_PAGE).digest('base64')}`,
      styles: [
        { type: 'url', url: 'https://cdn.example/card.css', media: null, integrity: 'sha384-abc', crossOrigin: 'anonymous' },
        { type: 'inline', content: '.card{padding:1rem}', media: null },
      ],
      scripts: [
        { type: 'url', url: './card.js', module: true, async: false, defer: true, integrity: null, crossOrigin: null },
        { type: 'inline', content: 'window.cardReady = true;', module: false },
      ],
    });
  });
});

describe('CORS', () => {
  it('any origin may read, without credentials', async () => {
    const res = await consume(`id=${componentId}&env=prod`, { Origin: 'https://shop.example' });
    expect(res.header('access-control-allow-origin')).toBe('*');
    expect(res.header('access-control-allow-credentials')).toBeUndefined();
    expect(res.header('access-control-expose-headers')).toMatch(/ETag/);
  });

  it('answers a preflight and lets the browser cache it', async () => {
    const res = await send(delivery.url, `/consume?id=${componentId}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
    });
    expect(res.status).toBe(204);
    expect(res.header('access-control-allow-origin')).toBe('*');
    expect(res.header('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(res.header('access-control-allow-headers')).toBe('Cp-Preview-Key, *');
    expect(res.header('access-control-max-age')).toBe('86400');
    expect(res.header('access-control-allow-credentials')).toBeUndefined();
  });
});
