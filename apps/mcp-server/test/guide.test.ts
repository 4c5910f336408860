import { Script } from 'node:vm';
import { CONTRACT_EXAMPLE } from '../src/guide/host-contract-html.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { rpc, startHarness, toolCall, type Harness } from './support/harness.js';

/*
 * The guide (GET /guide, and get_service_guide for assistants): its contents link to its sections in
 * order, and "Talking to the host page" states the component side of the host SDK's contract with an
 * example that is the exported one, whole and escaped.
 */
let domain: TestDomain;
let h: Harness;
let guide: string;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
  guide = await (await fetch(`${h.baseUrl}/guide`)).text();
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

const decode = (text: string): string =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

test('the contents link to every section, numbered in order', () => {
  const contents = [...guide.matchAll(/<li><a href="#([a-z]+)">/g)].map((m) => m[1]);
  const sections = [...guide.matchAll(/<h2 id="([a-z]+)">(\d+)\. /g)];
  expect(sections.map((m) => m[1])).toEqual(contents);
  expect(sections.map((m) => Number(m[2]))).toEqual(contents.map((_, i) => i + 1));
  expect(contents).toContain('host');
});

test('"Talking to the host page": the three globals, sizing, cloning, both isolations, linked files', () => {
  const section = /<h2 id="host">([\s\S]*?)<h2 /.exec(guide)?.[1] ?? '';
  for (const term of [
    'Talking to the host page',
    'window.cpReceive = (data) =&gt;',
    'window.cpSend(action, payload)',
    'window.cpRoot',
    'cp-action',
    "cpSend('cp:size', { height: 320 })",
    'structured-cloned',
    'Keep the references your top level got',
    'sandboxed <code>&lt;iframe&gt;</code>',
    'Content-Security-Policy',
    'selectors match nothing',
    '<code>:host</code>',
    '<code>integrity</code>',
    'Access-Control-Allow-Origin',
  ]) {
    expect(section).toContain(term);
  }
});

test('the example dist/index.html is shown whole and escaped, uses the contract, and its script compiles', () => {
  const section = /<h2 id="host">([\s\S]*?)<h2 /.exec(guide)?.[1] ?? '';
  const shown = /<pre>([\s\S]*?)<\/pre>/.exec(section)?.[1] ?? '';
  expect(shown).not.toMatch(/<(script|style|div)\b/);
  expect(decode(shown)).toBe(CONTRACT_EXAMPLE);
  for (const use of ['window.cpReceive = (data) =>', 'window.cpSend', 'window.cpRoot', 'root.querySelector(']) expect(CONTRACT_EXAMPLE).toContain(use);
  expect(CONTRACT_EXAMPLE).not.toMatch(/document\.|\bbody\s*\{/);
  const script = /<script>([\s\S]*?)<\/script>/.exec(CONTRACT_EXAMPLE)?.[1] ?? 'missing(';
  expect(() => new Script(script)).not.toThrow();
});

test('get_service_guide answers the same guide', async () => {
  const { json } = await rpc(h.mcpUrl, toolCall('get_service_guide'));
  expect(json.result.structuredContent.html).toBe(guide);
});
