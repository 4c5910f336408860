import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CpError as SdkCpError } from '@component-platform/host';
import { CpError, renderComponent, type RenderComponentOptions } from '@component-platform/host/server';
import { aUser, publish, upload } from '../support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from '../support/test-stack.js';

/*
 * The server-side include (`@component-platform/host/server`) in Node against the
 * delivery API of the test stack over HTTP: the element it writes, and the
 * CpError a host's server catches when delivery fails.
 */

let stack: TestStack;
let delivery: Instance;
let actor: { userId: string };

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack);
  ({ actor } = await aUser(stack.domain));
}, 60_000);

afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const failure = (options: RenderComponentOptions): Promise<CpError> =>
  renderComponent(options).then(
    () => Promise.reject(new Error('renderComponent resolved')),
    (error: unknown) => {
      // One class for both entry points.
      expect(error).toBeInstanceOf(CpError);
      expect(error).toBeInstanceOf(SdkCpError);
      return error as CpError;
    },
  );

/** A server on a free port: `handle` answers (or not); closed after the test. */
async function aServer(handle: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
const closed = (server: Server): Promise<void> => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
};

it('writes the element with the component in Declarative Shadow DOM: styles, markup, scripts inert, every value escaped', async () => {
  const html = `<!doctype html><html><head><title>Card</title><meta charset="utf-8"><style>p { color: rgb(0, 0, 255); }</style>
<script>window.headRan = true;</script></head><body><p id="p" title='say "hi" &amp; <bye>'>Tom &amp; Jerry &lt;3</p>
<script type="module">import './x.js';</script><noscript>no script</noscript></body></html>`;
  const { componentId, variantId } = await upload(stack.domain, actor, { html });
  await publish(stack.domain, actor, componentId, 'prod');
  const data = { name: 'A "quoted" <b>&amp;</b>' };

  const element = await renderComponent({ componentId, env: 'prod', baseUrl: delivery.url, data, live: true });

  expect(element).toBe(
    `<cp-component component-id="${componentId}" env="prod" base-url="${delivery.url}" live="" isolation="shadow" shadow-root-mode="open" ssr-variant="${variantId}"` +
      ` ssr-data="{&quot;name&quot;:&quot;A \\&quot;quoted\\&quot; &lt;b&gt;&amp;amp;&lt;/b&gt;&quot;}">` +
      '<template shadowrootmode="open"><style>:host{display:block}[hidden]{display:none!important}</style><slot name="loading" hidden=""></slot><slot name="error" hidden=""></slot>' +
      '<div><div><div style="all:initial;display:block"><template shadowrootmode="open">' +
      '<style>p { color: rgb(0, 0, 255); }</style><script type="inert" cp-type="">window.headRan = true;</script>' +
      `<p id="p" title="say &quot;hi&quot; &amp; &lt;bye&gt;">Tom &amp; Jerry &lt;3</p>\n<script type="inert" cp-type="module">import './x.js';</script><noscript>no script</noscript>` +
      '</template></div></div></div></template></cp-component>',
  );
});

it('reads /consume at serverBaseUrl and writes baseUrl, the browsers\' address, and the options the SDK takes over', async () => {
  const { componentId } = await upload(stack.domain, actor, { html: '<p>inside</p>' });
  await publish(stack.domain, actor, componentId, 'prod');
  const element = await renderComponent({ componentId, env: 'prod', baseUrl: 'https://delivery.example', serverBaseUrl: delivery.url, maxHeight: 400 });
  expect(element).toMatch(/^<cp-component [^>]*base-url="https:\/\/delivery\.example"[^>]*max-height="400"[^>]*>.*<p>inside<\/p>/s);
  expect(element).not.toContain(delivery.url);
});

it('rejects with the delivery API\'s problem: an unknown component is NOT_FOUND', async () => {
  const componentId = crypto.randomUUID();
  const answered = await (await fetch(`${delivery.url}/consume?id=${componentId}&env=prod`)).json();

  const error = await failure({ componentId, env: 'prod', baseUrl: delivery.url });

  expect(error.problem).toEqual(answered);
  expect(error.problem).toMatchObject({ code: 'NOT_FOUND', status: 404, resource: 'Component' });
});

it('rejects with NETWORK when delivery is unreachable or does not answer in time', async () => {
  const gone = await aServer(() => undefined);
  await closed(gone.server);
  const hanging = await aServer(() => undefined);
  try {
    const unreachable = await failure({ componentId: crypto.randomUUID(), env: 'prod', baseUrl: gone.url, timeoutMs: 1000 });
    expect(unreachable.problem).toMatchObject({ code: 'NETWORK', status: 0, detail: `The delivery API at ${gone.url} could not be reached.` });

    const silent = await failure({ componentId: crypto.randomUUID(), env: 'prod', baseUrl: hanging.url, timeoutMs: 300 });
    expect(silent.problem).toMatchObject({ code: 'NETWORK', status: 0, detail: `The delivery API at ${hanging.url} did not answer within 300 ms.` });
  } finally {
    await closed(hanging.server);
  }
});

it('rejects with INTEGRITY_MISMATCH when the HTML was altered on its way', async () => {
  const { componentId } = await upload(stack.domain, actor, { html: '<p>price</p>' });
  await publish(stack.domain, actor, componentId, 'prod');
  // A proxy in front of the delivery API that adds a script to the component's HTML.
  const tampering = await aServer((req, res) => {
    void fetch(`${delivery.url}${req.url}`)
      .then((answer) => answer.json())
      .then((body: { item: { consume_variant: { loader: { HTML: string } }[] } }) => {
        body.item.consume_variant[0]!.loader.HTML += '<script>steal()</script>';
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      });
  });
  try {
    const error = await failure({ componentId, env: 'prod', baseUrl: tampering.url });
    expect(error.problem).toMatchObject({ code: 'INTEGRITY_MISMATCH', detail: expect.stringMatching(/does not match its integrity/) });
    // The same read without the proxy renders.
    expect(await renderComponent({ componentId, env: 'prod', baseUrl: delivery.url })).toContain('<p>price</p>');
  } finally {
    await closed(tampering.server);
  }
});

it('rejects with BAD_RESPONSE when the answer is not a /consume answer', async () => {
  const other = await aServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"item":{}}'));
  try {
    expect((await failure({ componentId: crypto.randomUUID(), env: 'prod', baseUrl: other.url })).problem.code).toBe('BAD_RESPONSE');
  } finally {
    await closed(other.server);
  }
});

it.each([
  ['no baseUrl', { componentId: 'x', env: 'prod' }, /baseUrl is required/],
  ['no componentId', { componentId: '', env: 'prod', baseUrl: 'http://delivery.test' }, /componentId is required/],
  ['a relative baseUrl', { componentId: 'x', env: 'prod', baseUrl: 'delivery.test' }, /not an absolute URL/],
  ['a relative serverBaseUrl', { componentId: 'x', env: 'prod', baseUrl: 'http://delivery.test', serverBaseUrl: '/delivery' }, /serverBaseUrl "\/delivery" is not an absolute URL/],
  ['iframe isolation', { componentId: 'x', env: 'prod', baseUrl: 'http://delivery.test', isolation: 'iframe' }, /shadow-isolated/],
  ['a shadowRootMode', { componentId: 'x', env: 'prod', baseUrl: 'http://delivery.test', shadowRootMode: 'closed' }, /shadowRootMode is not an option/],
  ['a function in data', { componentId: 'x', env: 'prod', baseUrl: 'http://delivery.test', data: { at: () => 1 } }, /JSON-serializable/],
  ['a negative maxHeight', { componentId: 'x', env: 'prod', baseUrl: 'http://delivery.test', maxHeight: -1 }, /maxHeight must be a positive number/],
  ['a zero timeoutMs', { componentId: 'x', env: 'prod', baseUrl: 'http://delivery.test', timeoutMs: 0 }, /timeoutMs must be a positive number/],
])('rejects %s with INVALID_OPTIONS, before any request', async (_label, options, detail) => {
  const error = await failure(options as unknown as RenderComponentOptions);
  expect(error.problem).toMatchObject({ code: 'INVALID_OPTIONS', detail: expect.stringMatching(detail) });
});
