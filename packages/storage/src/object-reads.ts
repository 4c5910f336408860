import type { ExportStore, ObjectStore } from '@cp/domain';

import type { BucketCalls } from './bucket-calls.js';
import { readAll } from './minio-client.js';
import { errorCode, toStoreFailure } from './to-storage-error.js';

export type ObjectReads = Pick<ObjectStore, 'stat' | 'read'> & Pick<ExportStore, 'readIfPresent' | 'list'>;

/** What the store reads: an object's size, its bytes, and the keys under a prefix. */
export const objectReads = (calls: BucketCalls): ObjectReads => {
  const { client, bucket, context, checkKey, attempt } = calls;
  return {
    async stat(key) {
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
      if (!(await calls.bucketExists('stat'))) throw calls.bucketMissing('stat', key);
      return null;
    },

    async read(key) {
      checkKey('read', key);
      return attempt('read', key, async () => readAll(await client.getObject(bucket, key)));
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
  };
};
