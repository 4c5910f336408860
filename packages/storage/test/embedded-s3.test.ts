import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '../src/index.js';
import { closedPort } from './support/fake-servers.js';
import { putObject } from './support/s3-target.js';

// These tests are about the embedded server itself, so they always start their own,
// whatever S3_ENDPOINT says.

const started: EmbeddedS3[] = [];
const start = async (...args: Parameters<typeof startEmbeddedS3>) => {
  const server = await startEmbeddedS3(...args);
  started.push(server);
  return server;
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

describe('startEmbeddedS3', () => {
  it('listens on 127.0.0.1, on a random port, with the bucket created', async () => {
    const s3 = await start();

    expect(s3.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s3.config).toMatchObject({
      endpoint: s3.endpoint,
      publicEndpoint: s3.endpoint,
      accessKey: expect.stringMatching(/^cp-local-[0-9a-f]{12}$/),
      bucket: 'components',
      region: 'us-east-1',
    });
    const store = createObjectStore(s3.config);
    expect(await store.stat('anything')).toBeNull();
  });

  it('takes the port, bucket, keys and public endpoint it is given', async () => {
    const port = await closedPort();
    const s3 = await start({
      port,
      bucket: 'my-bucket',
      accessKey: 'me',
      secretKey: 'my-secret-key',
      publicEndpoint: 'https://files.example.test',
    });

    expect(s3.endpoint).toBe(`http://127.0.0.1:${port}`);
    expect(s3.config).toMatchObject({
      bucket: 'my-bucket',
      accessKey: 'me',
      secretKey: 'my-secret-key',
      publicEndpoint: 'https://files.example.test',
    });
    await createObjectStore(s3.config).ensureBucket();
  });

  it('draws new keys at each start, so several servers run side by side', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.config.accessKey).not.toBe(b.config.accessKey);
    expect(a.config.secretKey).not.toBe(b.config.secretKey);
    expect(a.config.secretKey.length).toBeGreaterThanOrEqual(32);
    await createObjectStore(a.config).ensureBucket();
    await createObjectStore(b.config).ensureBucket();
  });

  it('refuses a bad bucket name before starting anything', async () => {
    await expect(startEmbeddedS3({ bucket: 'Not_Valid' })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
  });
});

describe('the embedded server refuses', () => {
  it('unsigned requests (s3rver alone would serve them)', async () => {
    const s3 = await start();
    const store = createObjectStore(s3.config);
    const key = 'kept.html';
    await putObject(store, key, 'original');
    const url = `${s3.endpoint}/${s3.config.bucket}/${key}`;

    const put = await fetch(url, { method: 'PUT', body: 'overwritten' });
    const get = await fetch(url);
    const remove = await fetch(url, { method: 'DELETE' });
    const list = await fetch(`${s3.endpoint}/`);

    for (const response of [put, get, remove, list]) {
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('<Code>AccessDenied</Code>');
    }
    expect(Buffer.from(await store.read(key)).toString()).toBe('original');
  });

  it("s3rver's built-in S3RVER/S3RVER key", async () => {
    const s3 = await start();
    const store = createObjectStore({ ...s3.config, accessKey: 'S3RVER', secretKey: 'S3RVER' });

    await expect(store.ensureBucket()).rejects.toMatchObject({ code: 'BAD_CREDENTIALS' });
  });

  it('a second server in this process with the same access key but another secret', async () => {
    await start({ accessKey: 'shared', secretKey: 'one-secret' });

    await expect(startEmbeddedS3({ accessKey: 'shared', secretKey: 'another' })).rejects.toThrow(
      /already uses access key "shared"/,
    );
  });
});

describe('keys shared by servers in one process', () => {
  it('stay valid until the last server using them closes', async () => {
    const first = await start({ accessKey: 'twice', secretKey: 'same-secret' });
    const second = await start({ accessKey: 'twice', secretKey: 'same-secret' });

    await first.close();
    await createObjectStore(second.config).ensureBucket();
    await second.close();

    const third = await start({ accessKey: 'other', secretKey: 'x'.repeat(20) });
    const stale = createObjectStore({
      ...third.config,
      accessKey: 'twice',
      secretKey: 'same-secret',
    });
    await expect(stale.ensureBucket()).rejects.toMatchObject({ code: 'BAD_CREDENTIALS' });
  });
});

describe('storage on disk', () => {
  it('without a directory: a temporary one, removed on close', async () => {
    const s3 = await start();
    await putObject(createObjectStore(s3.config), 'a.html', 'x');
    expect(existsSync(s3.directory)).toBe(true);

    await s3.close();
    await s3.close(); // idempotent

    expect(existsSync(s3.directory)).toBe(false);
  });

  it('with a directory: objects survive a restart, and the directory stays', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'cp-s3-persist-'));
    const directory = join(parent, '.data', 's3');
    try {
      const first = await start({ directory });
      await putObject(createObjectStore(first.config), 'kept.html', '<p>kept</p>');
      await first.close();

      const second = await start({ directory });
      const store = createObjectStore(second.config);
      await store.ensureBucket();

      expect(Buffer.from(await store.read('kept.html')).toString()).toBe('<p>kept</p>');
      await second.close();
      expect(existsSync(directory)).toBe(true);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('after close, the endpoint is unreachable', async () => {
    const s3 = await start();
    await s3.close();

    await expect(createObjectStore(s3.config).stat('k')).rejects.toMatchObject({
      dependency: 'object store',
      cause: { code: 'UNREACHABLE' },
    });
  });
});
