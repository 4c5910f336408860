import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { editComponentTags, type Repositories } from '@cp/domain';
import { get } from './support/http-client.js';
import { aUser, publish, SMALL_PAGE, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

let stack: TestStack;
let delivery: Instance;
let actor: { userId: string };
let componentId: string;
let tinyId: string;
const TINY_PAGE = '<p>hi</p>';

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack);
  ({ actor } = await aUser(stack.domain));
  componentId = (await upload(stack.domain, actor)).componentId;
  await publish(stack.domain, actor, componentId, 'prod');
  tinyId = (await upload(stack.domain, actor, { html: TINY_PAGE })).componentId;
  await publish(stack.domain, actor, tinyId, 'prod');
});

afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const released = (headers: Record<string, string> = {}) => get(delivery.url, `/consume?id=${componentId}&env=prod`, headers);

/** Polls until `check` passes (notifications arrive asynchronously), at most `ms`. */
async function eventually(check: () => Promise<void>, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe('ETag and 304', () => {
  it('a strong ETag that is the same for the same content', async () => {
    const first = await released();
    const second = await released();
    expect(first.header('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(second.header('etag')).toBe(first.header('etag'));
  });

  it('If-None-Match with the current ETag: 304, no body, the caching headers repeated', async () => {
    const etag = (await released()).header('etag')!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await released({ 'If-None-Match': inm });
      expect(res.status).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.header('etag')).toBe(etag);
      expect(res.header('cache-control')).toMatch(/^public/);
      expect(res.header('vary')).toBe('Accept-Encoding');
      expect(res.header('access-control-allow-origin')).toBe('*');
    }
  });

  it('a stale ETag: 200 with the body', async () => {
    const res = await released({ 'If-None-Match': '"stale"' });
    expect(res.status).toBe(200);
    expect(res.json().item.id).toBe(componentId);
  });

  it('each encoding has its own ETag', async () => {
    const identity = (await released()).header('etag')!;
    const br = (await released({ 'Accept-Encoding': 'br' })).header('etag')!;
    const gzip = (await released({ 'Accept-Encoding': 'gzip' })).header('etag')!;
    expect(new Set([identity, br, gzip]).size).toBe(3);
    expect((await released({ 'Accept-Encoding': 'br', 'If-None-Match': br })).status).toBe(304);
    expect((await released({ 'Accept-Encoding': 'br', 'If-None-Match': identity })).status).toBe(200);
  });
});

describe('Cache-Control', () => {
  it('released: public, short max-age, stale-while-revalidate and stale-if-error', async () => {
    expect((await released()).header('cache-control')).toBe('public, max-age=30, stale-while-revalidate=30, stale-if-error=86400');
  });

  it('preview: no-cache (revalidate every time, the ETag makes it cheap)', async () => {
    expect((await get(delivery.url, `/consume?id=${componentId}`)).header('cache-control')).toBe('no-cache');
  });
});

describe('compression', () => {
  it('brotli and gzip when accepted, identical JSON once decoded, Vary on Accept-Encoding', async () => {
    const plain = await released();
    const br = await released({ 'Accept-Encoding': 'gzip, deflate, br' });
    const gz = await released({ 'Accept-Encoding': 'gzip' });
    expect(plain.header('content-encoding')).toBeUndefined();
    expect(br.header('content-encoding')).toBe('br');
    expect(gz.header('content-encoding')).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(Number(br.header('content-length'))).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length);
    for (const res of [plain, br, gz]) expect(res.header('vary')).toBe('Accept-Encoding');
  });

  it('honours q-values: br;q=0 refuses brotli, a higher q for gzip wins', async () => {
    expect((await released({ 'Accept-Encoding': 'br;q=0, gzip' })).header('content-encoding')).toBe('gzip');
    expect((await released({ 'Accept-Encoding': 'br;q=0.5, gzip;q=0.9' })).header('content-encoding')).toBe('gzip');
    expect((await released({ 'Accept-Encoding': '*' })).header('content-encoding')).toBe('br');
    expect((await released({ 'Accept-Encoding': 'identity' })).header('content-encoding')).toBeUndefined();
    expect((await released({ 'Accept-Encoding': 'deflate' })).header('content-encoding')).toBeUndefined();
  });

  it('bodies under the threshold are never compressed', async () => {
    const res = await get(delivery.url, `/consume?id=${tinyId}&env=prod`, { 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.header('content-encoding')).toBeUndefined();
  });
});

describe('the in-process cache', () => {
  it('reads the database once per entry, and once for concurrent misses (single flight)', async () => {
    let reads = 0;
    const counting: Repositories = {
      ...stack.repos,
      components: {
        ...stack.repos.components,
        findById: (id) => {
          reads += 1;
          return stack.repos.components.findById(id);
        },
      },
    };
    const instance = await startInstance(stack, { repos: counting });
    try {
      const responses = await Promise.all(Array.from({ length: 20 }, () => get(instance.url, `/consume?id=${componentId}&env=prod`)));
      expect(responses.every((res) => res.status === 200)).toBe(true);
      expect(reads).toBe(1);
      await get(instance.url, `/consume?id=${componentId}&env=prod`);
      expect(reads).toBe(1);
      // A tag edit notifies: the entry is rebuilt on the next request.
      await editComponentTags({ actor, componentId, add: ['new-tag'] }, stack.domain);
      await eventually(async () => {
        await get(instance.url, `/consume?id=${componentId}&env=prod`);
        expect(reads).toBe(2);
      });
    } finally {
      await instance.close();
    }
  });

  it('a new upload changes the preview, a publish the release, within one instance', async () => {
    const html = SMALL_PAGE.replace('Hello', 'Version two');
    const { variantId } = await upload(stack.domain, actor, { componentId, html });
    await eventually(async () => {
      expect((await get(delivery.url, `/consume?id=${componentId}`)).json().item.consume_variant[0].id).toBe(variantId);
    });
    expect((await released()).json().item.consume_variant[0].id).not.toBe(variantId);
    await publish(stack.domain, actor, componentId, 'prod', variantId);
    await eventually(async () => {
      const res = await released();
      expect(res.json().item.consume_variant[0].id).toBe(variantId);
      expect(res.json().item.consume_variant[0].loader.HTML).toBe(html);
    });
  });
});
