import { createObjectStore, StorageError } from '../src/index.js';
import { adminClient, startS3Target, type S3Target } from './support/s3-target.js';

let target: S3Target;

beforeAll(async () => {
  target = await startS3Target();
});

afterAll(async () => {
  await target?.close();
});

const headers = {
  contentType: 'application/json; charset=utf-8',
  cacheControl: 'public, max-age=60, stale-while-revalidate=300',
};

describe('put, list and remove (the export bucket)', () => {
  it('put stores the exact bytes with Content-Type and Cache-Control, served back by the S3 API', async () => {
    const key = target.newKey('components/c1/prod.json');
    const bytes = Buffer.from('{"item":{"name":"caf\u00e9 \u2603"}}');

    await target.store.put(key, bytes, headers);

    const stat = await adminClient(target.config).statObject(target.config.bucket, key);
    expect(stat.size).toBe(bytes.length);
    expect(stat.metaData['content-type']).toBe(headers.contentType);
    expect(stat.metaData['cache-control']).toBe(headers.cacheControl);
    expect(Buffer.from(await target.store.read(key)).equals(bytes)).toBe(true);
  });

  it('put replaces the object and its headers', async () => {
    const key = target.newKey('manifest.json');
    await target.store.put(key, Buffer.from('{"old":true,"longer":true}'), headers);

    await target.store.put(key, Buffer.from('{}'), { ...headers, cacheControl: 'no-cache' });

    const stat = await adminClient(target.config).statObject(target.config.bucket, key);
    expect(stat.metaData['cache-control']).toBe('no-cache');
    expect(Buffer.from(await target.store.read(key)).toString()).toBe('{}');
  });

  it('readIfPresent gives the bytes, or null for a missing key', async () => {
    const key = target.newKey('manifest.json');
    expect(await target.store.readIfPresent(key)).toBeNull();
    await target.store.put(key, Buffer.from('{"a":1}'), headers);
    expect(Buffer.from((await target.store.readIfPresent(key))!).toString()).toBe('{"a":1}');
  });

  it('list gives every key under a prefix, and only those', async () => {
    const a = target.newKey('org-a/components/x/prod.json');
    const prefix = a.slice(0, a.indexOf('org-a/') + 'org-a/'.length);
    const b = `${prefix}manifest.json`;
    const other = `${prefix.slice(0, -1)}b/manifest.json`;
    for (const key of [a, b, other]) await target.store.put(key, Buffer.from('{}'), headers);

    expect((await target.store.list(prefix)).sort()).toEqual([a, b].sort());
    await target.store.remove(a);
    expect(await target.store.list(prefix)).toEqual([b]);
  });

  it('refuses a header value that is not one, before any request', async () => {
    const key = target.newKey();
    const error = await target.store
      .put(key, Buffer.from('{}'), { ...headers, cacheControl: 'max-age=1\r\nX-Evil: 1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('INVALID_ARGUMENT');
    expect((error as StorageError).message).toBe(
      'cacheControl "max-age=1\\r\\nX-Evil: 1" is not a header value.',
    );
  });

  it('a missing bucket is BUCKET_MISSING, naming the operation', async () => {
    const store = createObjectStore({ ...target.config, bucket: 'cp-no-such-export-bucket' });
    const error = (await store
      .put('manifest.json', Buffer.from('{}'), headers)
      .catch((e: unknown) => e)) as StorageError;
    expect(error).toBeInstanceOf(StorageError);
    expect(error.code).toBe('BUCKET_MISSING');
    expect(error.operation).toBe('put');
    await expect(store.readIfPresent('manifest.json')).rejects.toMatchObject({ code: 'BUCKET_MISSING' });
  });
});
