import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { curlUploadCommand, defaultDomainConfig } from '@cp/domain';

import {
  createObjectStore,
  startEmbeddedS3,
  type EmbeddedS3,
  type S3ObjectStore,
} from '../src/index.js';
import { runShell } from './support/run-shell.js';

// The embedded server's PUT limit (MAX_UPLOAD_BYTES), over real HTTP with presigned
// URLs as upload_component hands them out. Always the embedded server: a real engine's
// limit is in engine-differences.test.ts.

const MiB = 1024 * 1024;

const errorCode = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

describe.each([
  ['the default MAX_UPLOAD_BYTES', undefined],
  ['a MAX_UPLOAD_BYTES of 64 KiB', 64 * 1024],
])('the embedded server with %s', (_name, maxPutBytes) => {
  const limit = maxPutBytes ?? defaultDomainConfig.maxUploadBytes;
  let s3: EmbeddedS3;
  let store: S3ObjectStore;
  let key = 0;
  const newKey = () => `uploads/test-${(key += 1)}/index.html`;
  const presign = (objectKey: string) =>
    store.presignPut(objectKey, { expiresInSeconds: 60, contentType: 'text/html' });

  beforeAll(async () => {
    s3 = await startEmbeddedS3(maxPutBytes === undefined ? {} : { maxPutBytes });
    store = createObjectStore(s3.config);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('refuses a 20 MiB PUT with 400 EntityTooLarge, and stores nothing', async () => {
    const objectKey = newKey();
    const response = await fetch(await presign(objectKey), {
      method: 'PUT',
      headers: { 'content-type': 'text/html' },
      body: new Uint8Array(20 * MiB),
    });
    expect(response.status).toBe(400);
    expect(errorCode(await response.text())).toBe('EntityTooLarge');
    expect(await store.stat(objectKey)).toBeNull();
  });

  it('refuses one byte over the limit; stores a PUT of exactly the limit', async () => {
    const over = newKey();
    const refused = await fetch(await presign(over), {
      method: 'PUT',
      headers: { 'content-type': 'text/html' },
      body: new Uint8Array(limit + 1),
    });
    expect(refused.status).toBe(400);
    expect(await store.stat(over)).toBeNull();

    const atLimit = newKey();
    const stored = await fetch(await presign(atLimit), {
      method: 'PUT',
      headers: { 'content-type': 'text/html' },
      body: new Uint8Array(limit),
    });
    expect(stored.status).toBe(200);
    expect(await store.stat(atLimit)).toEqual({ size: limit });
  });

  it("makes upload_component's curl command fail with error 400 for a file over the limit", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'cp-size-'));
    try {
      await writeFile(join(folder, 'index.html'), new Uint8Array(limit + 1));
      const objectKey = newKey();
      const result = await runShell(
        'sh',
        curlUploadCommand(await presign(objectKey), './index.html'),
        {
          cwd: folder,
          timeoutMs: 30_000,
        },
      );
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain('400');
      expect(await store.stat(objectKey)).toBeNull();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

/** A PUT without Content-Length (chunked): `size` bytes in chunks; resolves with the status, or null when the connection was cut. */
const chunkedPut = (url: string, size: number) =>
  new Promise<number | null>((resolve) => {
    const put = request(
      url,
      { method: 'PUT', headers: { 'content-type': 'text/html' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? null));
      },
    );
    put.on('error', () => resolve(null));
    const chunk = new Uint8Array(16 * 1024);
    let sent = 0;
    const writeMore = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!put.write(part)) return void put.once('drain', writeMore);
      }
      put.end();
    };
    writeMore();
  });

describe('a chunked PUT (no Content-Length) to the embedded server', () => {
  const limit = 256 * 1024;
  let s3: EmbeddedS3;
  let store: S3ObjectStore;
  const presign = (objectKey: string) =>
    store.presignPut(objectKey, { expiresInSeconds: 60, contentType: 'text/html' });

  beforeAll(async () => {
    s3 = await startEmbeddedS3({ maxPutBytes: limit });
    store = createObjectStore(s3.config);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('is cut when its count passes the limit, and nothing is stored', async () => {
    const objectKey = 'uploads/chunked-over/index.html';
    const status = await chunkedPut(await presign(objectKey), 20 * MiB);
    // Cut: either S3's 400 reached the client before the connection closed, or the close did.
    expect([400, null]).toContain(status);
    expect(await store.stat(objectKey)).toBeNull();
  });

  it('is stored whole when it stays within the limit', async () => {
    const objectKey = 'uploads/chunked-within/index.html';
    expect(await chunkedPut(await presign(objectKey), limit)).toBe(200);
    expect(await store.stat(objectKey)).toEqual({ size: limit });
  });
});
