import { randomBytes, randomUUID } from 'node:crypto';

import { createObjectStore, StorageError } from '../src/index.js';
import { putObject, startS3Target, type S3Target } from './support/s3-target.js';

let target: S3Target;

beforeAll(async () => {
  target = await startS3Target();
});

afterAll(async () => {
  await target?.close();
});

const rejection = async (promise: Promise<unknown>): Promise<StorageError> => {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(StorageError);
  return error as StorageError;
};

describe('stat, read, copy and remove', () => {
  it('stat gives the size and read gives the exact bytes, binary included', async () => {
    const key = target.newKey();
    const bytes = new Uint8Array(randomBytes(70_000));
    await putObject(target.store, key, bytes);

    expect(await target.store.stat(key)).toEqual({ size: bytes.length });
    expect(Buffer.from(await target.store.read(key)).equals(bytes)).toBe(true);
  });

  it('copy makes an independent object at the target, overwriting what was there', async () => {
    const source = target.newKey();
    const copy = target.newKey('variant.html');
    await putObject(target.store, source, '<p>new</p>');
    await putObject(target.store, copy, '<p>old and longer</p>');

    await target.store.copy(source, copy);
    await target.store.remove(source);

    expect(await target.store.stat(copy)).toEqual({ size: 10 });
    expect(Buffer.from(await target.store.read(copy)).toString()).toBe('<p>new</p>');
  });

  it('copy of a key onto itself leaves the object as it was', async () => {
    const key = target.newKey();
    await putObject(target.store, key, 'same');

    await target.store.copy(key, key);

    expect(Buffer.from(await target.store.read(key)).toString()).toBe('same');
  });

  it.each(['mon fichier é.html', '2025-01-02T03:04:05.678Z.html', "a?b#c&d+e=f;g@h$i,j'k%l.html"])(
    'copy, read and remove handle a key like %j',
    async (name) => {
      const source = target.newKey(name);
      const copy = target.newKey(`copy of ${name}`);
      await putObject(target.store, source, name);

      await target.store.copy(source, copy);

      expect(Buffer.from(await target.store.read(copy)).toString()).toBe(name);
      await target.store.remove(copy);
      await target.store.remove(source);
      expect(await target.store.stat(copy)).toBeNull();
    },
  );

  it('remove deletes the object', async () => {
    const key = target.newKey();
    await putObject(target.store, key, 'bye');

    await target.store.remove(key);

    expect(await target.store.stat(key)).toBeNull();
  });
});

describe('a missing object', () => {
  it('stat answers null', async () => {
    expect(await target.store.stat(target.newKey())).toBeNull();
  });

  it('remove succeeds', async () => {
    await expect(target.store.remove(target.newKey())).resolves.toBeUndefined();
  });

  it('read rejects with NOT_FOUND naming the key and the endpoint', async () => {
    const key = target.newKey();
    const error = await rejection(target.store.read(key));

    expect(error).toMatchObject({ code: 'NOT_FOUND', key, operation: 'read' });
    expect(error.message).toContain(key);
    expect(error.message).toContain(new URL(target.config.endpoint).origin);
  });

  it('copy from it rejects with NOT_FOUND and creates nothing', async () => {
    const source = target.newKey();
    const copy = target.newKey('copy.html');

    expect(await rejection(target.store.copy(source, copy))).toMatchObject({
      code: 'NOT_FOUND',
      key: source,
    });
    expect(await rejection(target.store.copy(source, source))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await target.store.stat(copy)).toBeNull();
  });
});

describe('the bucket', () => {
  it('ensureBucket creates a missing bucket, also when racing itself, and is idempotent', async () => {
    const bucket = `cp-test-${randomUUID()}`;
    target.dropBucketOnClose(bucket);
    const store = createObjectStore({ ...target.config, bucket });
    await expect(store.stat('k')).rejects.toMatchObject({ code: 'BUCKET_MISSING' });

    // Several processes starting at once: all of them race to create it.
    await Promise.all([store.ensureBucket(), store.ensureBucket(), store.ensureBucket()]);
    await store.ensureBucket();

    expect(await store.stat('k')).toBeNull();
  });

  it('every operation on a missing bucket says BUCKET_MISSING and names the bucket', async () => {
    const bucket = `cp-missing-${randomUUID()}`;
    const store = createObjectStore({ ...target.config, bucket });

    // One at a time: each must fail on its own (and no rejection may go unobserved).
    for (const operation of [
      () => store.stat('k'),
      () => store.read('k'),
      () => store.copy('k', 'l'),
      () => store.remove('k'),
    ]) {
      const error = await rejection(operation());
      expect(error.code).toBe('BUCKET_MISSING');
      expect(error.message).toContain(`"${bucket}"`);
      expect(error.message).toContain('S3_BUCKET');
    }
  });
});

describe('arguments', () => {
  it.each(['', '/abs', 'a/../b', 'a//b', 'tab\there'])(
    'a key like %j is refused before any request',
    async (key) => {
      for (const operation of [
        () => target.store.stat(key),
        () => target.store.read(key),
        () => target.store.remove(key),
        () => target.store.copy(key, 'ok'),
        () => target.store.copy('ok', key),
        () => target.store.presignPut(key, { expiresInSeconds: 60, contentType: 'text/html' }),
      ]) {
        expect(await rejection(operation())).toMatchObject({ code: 'INVALID_ARGUMENT' });
      }
    },
  );

  it.each([0, -1, 1.5, 604_801, Number.NaN])(
    'an expiry of %p seconds is refused',
    async (seconds) => {
      const error = await rejection(
        target.store.presignPut('k', { expiresInSeconds: seconds, contentType: 'text/html' }),
      );
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    },
  );

  it.each(['', ' text/html', 'text/html\r\nX-Evil: 1', 'text/html\n'])(
    'a content type like %j is refused',
    async (contentType) => {
      const error = await rejection(
        target.store.presignPut('k', { expiresInSeconds: 60, contentType }),
      );
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    },
  );
});
