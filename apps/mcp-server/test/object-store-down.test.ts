/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { defaultDomainConfig, type DomainDeps, type ObjectStore, type User } from '@cp/domain';
import { startFaultProxy, type FaultProxy } from '@cp/http-runtime/testing';
import { createObjectStore, DEFAULT_REQUEST_TIMEOUT_MS, startEmbeddedS3, type EmbeddedS3 } from '@cp/storage';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { aUser, startHarness, type Harness } from './support/harness.js';
import { aProject, html, runInShell } from './support/upload.js';

/*
 * confirm_upload while the object store fails: the MCP server reaches the embedded S3
 * server (over HTTP) through a TCP fault proxy; presigned URLs point at the server
 * itself, as a user's curl reaches the store by another road. The database stays up.
 */

let s3: EmbeddedS3;
let db: TestDatabase;
let proxy: FaultProxy;
let h: Harness;
let alice: User;
let client: Client;
/** Set by a test to cut the store right after the server-side copy (mid-confirm). */
let cutAfterCopy: (() => Promise<void>) | null = null;

beforeAll(async () => {
  [s3, db] = await Promise.all([startEmbeddedS3(), createTestDatabase()]);
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
  const store = createObjectStore({ ...s3.config, endpoint: `http://127.0.0.1:${proxy.port}`, publicEndpoint: s3.endpoint });
  const objects: ObjectStore = {
    ...store,
    async copy(source, target) {
      await store.copy(source, target);
      const cut = cutAfterCopy;
      cutAfterCopy = null;
      await cut?.();
    },
  };
  const domain: DomainDeps = {
    repos: db.repos,
    objects,
    clock: { now: () => new Date() },
    ids: { newId: () => randomUUID() },
    config: defaultDomainConfig,
  };
  h = await startHarness({ domain });
  alice = await aUser(h.domain);
  client = await h.connect(await h.tokenFor(alice));
});

afterAll(async () => {
  await h?.close();
  await proxy?.close();
  await Promise.all([s3?.close(), db?.close()]);
});

const callTool = async (name: string, args: Record<string, unknown>) => {
  const started = performance.now();
  const result = (await client.callTool({ name, arguments: args })) as { structuredContent: Record<string, any>; isError?: boolean };
  return { result, ms: performance.now() - started };
};

/** upload_component and the handed-out curl: a session waiting for confirm_upload. */
const uploaded = async (name: string): Promise<string> => {
  const { result } = await callTool('upload_component', { name });
  expect(result.isError).toBeUndefined();
  const project = await aProject(html(name));
  await runInShell('sh', result.structuredContent.curlCommand as string, project.dir);
  return result.structuredContent.uploadId as string;
};

const expectUnavailable = (result: { structuredContent: Record<string, any>; isError?: boolean }) => {
  expect(result.isError).toBe(true);
  expect(result.structuredContent.error.code).toBe('STORE_UNAVAILABLE');
  expect(result.structuredContent.error.message).toBe(
    'The object store is unavailable right now, so nothing was read or changed. Retry in 5 seconds.',
  );
};

const variantsOf = (componentId: string) => db.prisma.variant.count({ where: { componentId } });

it('refused, then hung: confirm_upload answers UNAVAILABLE (promptly), and the same call succeeds once the store is back', async () => {
  const uploadId = await uploaded('Refused banner');

  await proxy.refuse();
  const refused = await callTool('confirm_upload', { uploadId });
  expectUnavailable(refused.result);
  expect(refused.ms).toBeLessThan(1000);

  await proxy.restore();
  proxy.hang();
  const hung = await callTool('confirm_upload', { uploadId });
  expectUnavailable(hung.result);
  expect(hung.ms).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS + 1000);

  await proxy.restore();
  const confirmed = await callTool('confirm_upload', { uploadId });
  expect(confirmed.result.isError).toBeUndefined();
  expect(confirmed.result.structuredContent).toMatchObject({ success: true, isNewComponent: true, componentName: 'Refused banner' });
  expect(await variantsOf(confirmed.result.structuredContent.componentId as string)).toBe(1);
});

it('cut in the middle (after the copy): no half state, the session is confirmed once after recovery', async () => {
  const uploadId = await uploaded('Half-way banner');
  cutAfterCopy = () => proxy.refuse();

  const cut = await callTool('confirm_upload', { uploadId });
  expectUnavailable(cut.result);
  const session = await db.prisma.uploadSession.findUnique({ where: { id: uploadId } });
  expect(session?.state).toBe('pending');
  expect(await db.prisma.component.count({ where: { name: 'Half-way banner' } })).toBe(0);

  await proxy.restore();
  const confirmed = await callTool('confirm_upload', { uploadId });
  expect(confirmed.result.structuredContent).toMatchObject({ success: true, isNewComponent: true });
  const again = await callTool('confirm_upload', { uploadId });
  expect(again.result.structuredContent).toEqual(confirmed.result.structuredContent);
  expect(await variantsOf(confirmed.result.structuredContent.componentId as string)).toBe(1);
});
