/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { aUser, startHarness, type Harness } from '../../mcp-server/test/support/harness.js';
import { aProject, runInShell } from '../../mcp-server/test/support/upload.js';
import { get } from './support/http-client.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * The whole path a team takes, through the MCP server's own app and the MCP SDK
 * client (as apps/mcp-server's tests drive it): upload_component, the returned
 * curl command run by a real shell, confirm_upload; preview through /consume;
 * publish_component to prod; then /consume?env=prod serves exactly the uploaded
 * bytes with a matching integrity. Both services share one database and S3.
 */

let stack: TestStack;
let mcp: Harness;
let delivery: Instance;
let client: Awaited<ReturnType<Harness['connect']>>;

beforeAll(async () => {
  stack = await openTestStack();
  [mcp, delivery] = await Promise.all([startHarness({ domain: stack.domain }), startInstance(stack)]);
  const user = await aUser(stack.domain);
  client = await mcp.connect(await mcp.tokenFor(user));
});

afterAll(async () => {
  await mcp?.close();
  await delivery?.close();
  await stack?.close();
});

const call = async (name: string, args: Record<string, unknown>): Promise<any> => {
  const result: any = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
};

it('upload through the MCP tools, preview, publish to prod, consume the exact bytes', async () => {
  // Bytes a browser would not normalize away: a BOM-less UTF-8 page with non-ASCII text and CRLF line ends.
  const page = '<!doctype html>\r\n<html><head><meta charset="utf-8"><style>h1{color:teal}</style></head>\r\n<body><h1>Grüße ✓</h1><script type="module">console.log("ready")</script></body></html>\r\n';
  const project = await aProject(page);
  const uploaded = await readFile(join(project.dir, 'dist', 'index.html'));

  const started = await call('upload_component', { name: 'Greeting' });
  await runInShell('sh', started.curlCommand, project.dir);
  const confirmed = await call('confirm_upload', { uploadId: started.uploadId });
  expect(confirmed.isNewComponent).toBe(true);

  const preview = await get(delivery.url, `/consume?id=${confirmed.componentId}`);
  expect(preview.status).toBe(200);
  expect(preview.json().item.consume_variant[0].id).toBe(confirmed.variantId);

  const notYet = await get(delivery.url, `/consume?id=${confirmed.componentId}&env=prod`);
  expect(notYet.status).toBe(404);
  expect(notYet.json().resource).toBe('Release');

  const published = await call('publish_component', { componentId: confirmed.componentId, environment: 'prod' });
  expect(published.variantId).toBe(confirmed.variantId);

  const res = await get(delivery.url, `/consume?id=${confirmed.componentId}&env=prod`);
  expect(res.status).toBe(200);
  const { item } = res.json();
  expect(item).toMatchObject({ id: confirmed.componentId, name: 'Greeting', organizationId: confirmed.orgId });
  const [variant] = item.consume_variant;
  expect(variant.id).toBe(confirmed.variantId);
  expect(Buffer.from(variant.loader.HTML, 'utf8').equals(uploaded)).toBe(true);
  expect(variant.loader.integrity).toBe(`sha384-${createHash('sha384').update(uploaded).digest('base64')}`);
  expect(variant.loader.styles).toEqual([{ type: 'inline', content: 'h1{color:teal}', media: null }]);
  expect(variant.loader.scripts).toEqual([{ type: 'inline', content: 'console.log("ready")', module: true }]);
});
