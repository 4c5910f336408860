import type { Clock, ExportStore, ObjectInfo, ObjectStore } from '@cp/domain';

import { encodeKeyPath, keyProblem } from './object-key.js';
import { presignV4 } from './presign-v4.js';
import { createClient, readAll } from './minio-client.js';
import { resolveS3Config, type S3Config } from './s3-config.js';
import { StorageError, StorageErrorCode, type StorageOperation } from './storage-error.js';
import { errorCode, toStorageError, toStoreFailure } from './to-storage-error.js';

/** S3 accepts presigned URLs valid for at most seven days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** The domain's ObjectStore (and ExportStore, for the export bucket), plus what an app needs at start. */
export interface S3ObjectStore extends ObjectStore, ExportStore {
  /** Creates the bucket when it does not exist; safe to call any number of times. */
  ensureBucket(): Promise<void>;
  readonly bucket: string;
  /** Origin this process talks to (S3_ENDPOINT). */
  readonly endpoint: string;
  /** Origin written into presigned URLs (S3_PUBLIC_ENDPOINT). */
  readonly publicEndpoint: string;
}

export interface ObjectStoreDeps {
  /** Time used to date presigned URLs. Default: the system clock. */
  readonly clock?: Clock;
}

const systemClock: Clock = { now: () => new Date() };

// A header value curl passes through unchanged: visible ASCII and inner spaces.
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The domain's ObjectStore over the minio client (S3 API, path-style addressing).
 * Validates the config at once (StorageError INVALID_CONFIG) but makes no request:
 * call ensureBucket() at start to check the server, the credentials and the bucket.
 */
export const createObjectStore = (config: S3Config, deps: ObjectStoreDeps = {}): S3ObjectStore => {
  const resolved = resolveS3Config(config);
  const clock = deps.clock ?? systemClock;
  const client = createClient(resolved);
  const { bucket } = resolved;
  const endpoint = resolved.endpoint.origin;

  const context = (operation: StorageOperation, key?: string) => ({
    operation,
    endpoint,
    bucket,
    key,
    accessKey: resolved.accessKey,
  });

  const invalidArgument = (operation: StorageOperation, message: string, key?: string) =>
    new StorageError(StorageErrorCode.InvalidArgument, message, {
      endpoint,
      operation,
      bucket,
      key,
    });

  const checkKey = (operation: StorageOperation, key: string): void => {
    const problem = keyProblem(key);
    if (problem !== null) {
      throw invalidArgument(
        operation,
        `Object key ${JSON.stringify(key)} is not usable: ${problem}.`,
        key,
      );
    }
  };

  const checkHeader = (name: string, value: string, key: string): void => {
    if (!HEADER_VALUE.test(value)) {
      throw invalidArgument('put', `${name} ${JSON.stringify(value)} is not a header value.`, key);
    }
  };

  /** Runs one S3 call and reports any failure as a StorageError. */
  const attempt = async <T>(
    operation: StorageOperation,
    key: string | undefined,
    call: () => Promise<T>,
  ) => {
    try {
      return await call();
    } catch (error) {
      throw toStoreFailure(error, context(operation, key));
    }
  };

  const bucketExists = (operation: StorageOperation) =>
    attempt(operation, undefined, () => client.bucketExists(bucket));

  const bucketMissing = (operation: StorageOperation, key?: string) =>
    toStorageError({ code: 'NoSuchBucket' }, context(operation, key));

  const stat = async (key: string): Promise<ObjectInfo | null> => {
    checkKey('stat', key);
    try {
      const found = await client.statObject(bucket, key);
      return { size: found.size };
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'NotFound' && code !== 'NoSuchKey')
        throw toStoreFailure(error, context('stat', key));
    }
    // A HEAD answer has no body, so "no such key" and "no such bucket" look alike:
    // ask about the bucket so a misconfigured bucket is not reported as a missing upload.
    if (!(await bucketExists('stat'))) throw bucketMissing('stat', key);
    return null;
  };

  return {
    bucket,
    endpoint,
    publicEndpoint: resolved.publicEndpoint.origin,

    async presignPut(key, { expiresInSeconds, contentType, signedAt }) {
      checkKey('presignPut', key);
      if (
        !Number.isInteger(expiresInSeconds) ||
        expiresInSeconds < 1 ||
        expiresInSeconds > MAX_PRESIGN_SECONDS
      ) {
        throw invalidArgument(
          'presignPut',
          `expiresInSeconds must be a whole number from 1 to ${MAX_PRESIGN_SECONDS} (got ${expiresInSeconds}).`,
          key,
        );
      }
      if (!HEADER_VALUE.test(contentType)) {
        throw invalidArgument(
          'presignPut',
          `contentType ${JSON.stringify(contentType)} is not a header value.`,
          key,
        );
      }
      // Signed locally for the public origin: no request, and the signature covers the
      // Host the user's client will send and the exact Content-Type it must send.
      return presignV4({
        method: 'PUT',
        origin: resolved.publicEndpoint.origin,
        hostHeader: resolved.publicEndpoint.hostHeader,
        path: `/${bucket}/${encodeKeyPath(key)}`,
        signedHeaders: { 'content-type': contentType },
        accessKey: resolved.accessKey,
        secretKey: resolved.secretKey,
        region: resolved.region,
        date: signedAt ?? clock.now(),
        expiresInSeconds,
      });
    },

    stat,

    async copy(sourceKey, targetKey) {
      checkKey('copy', sourceKey);
      checkKey('copy', targetKey);
      if (sourceKey === targetKey) {
        // S3 refuses a copy onto itself; the result (target holds the source) already holds.
        const info = await stat(sourceKey);
        if (info === null) throw toStorageError({ code: 'NoSuchKey' }, context('copy', sourceKey));
        return;
      }
      await attempt('copy', sourceKey, () =>
        client.copyObject(bucket, targetKey, `/${bucket}/${sourceKey}`),
      );
    },

    async read(key) {
      checkKey('read', key);
      return attempt('read', key, async () => readAll(await client.getObject(bucket, key)));
    },

    async put(key, bytes, { contentType, cacheControl }) {
      checkKey('put', key);
      checkHeader('contentType', contentType, key);
      checkHeader('cacheControl', cacheControl, key);
      // Standard headers (not x-amz-meta-*): the server stores them and serves them back on GET.
      await attempt('put', key, () =>
        client.putObject(bucket, key, Buffer.from(bytes), bytes.byteLength, {
          'Content-Type': contentType,
          'Cache-Control': cacheControl,
        }),
      );
    },

    async readIfPresent(key) {
      checkKey('read', key);
      try {
        return readAll(await client.getObject(bucket, key));
      } catch (error) {
        // A GET of a missing key says NoSuchKey, of a missing bucket NoSuchBucket: only the first is "none".
        if (errorCode(error) === 'NoSuchKey') return null;
        throw toStoreFailure(error, context('read', key));
      }
    },

    async list(prefix) {
      return attempt('list', prefix, async () => {
        const keys: string[] = [];
        for await (const item of client.listObjectsV2(bucket, prefix, true) as AsyncIterable<{ name?: string }>) {
          if (item.name !== undefined) keys.push(item.name);
        }
        return keys;
      });
    },

    async remove(key) {
      checkKey('remove', key);
      try {
        await client.removeObject(bucket, key);
      } catch (error) {
        // S3 answers 204 for a missing key; some compatible servers say NoSuchKey.
        if (errorCode(error) !== 'NoSuchKey') throw toStoreFailure(error, context('remove', key));
      }
    },

    async ensureBucket() {
      if (await bucketExists('ensureBucket')) return;
      try {
        await client.makeBucket(bucket, resolved.region);
      } catch (error) {
        // Another process created it between our check and our create: that is success.
        const code = errorCode(error);
        const createdMeanwhile =
          code === 'BucketAlreadyOwnedByYou' ||
          (code === 'BucketAlreadyExists' && (await bucketExists('ensureBucket')));
        if (!createdMeanwhile) throw toStoreFailure(error, context('ensureBucket'));
      }
    },
  };
};
