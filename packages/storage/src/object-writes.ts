import type { ExportStore, ObjectStore } from '@cp/domain';

import { type BucketCalls, isHeaderValue } from './bucket-calls.js';
import { errorCode, toStorageError, toStoreFailure } from './to-storage-error.js';

export interface ObjectWrites extends Pick<ObjectStore, 'copy' | 'remove'>, Pick<ExportStore, 'put'> {
  /** Creates the bucket when it does not exist; safe to call any number of times. */
  ensureBucket(): Promise<void>;
}

/** What the store changes: objects copied, put and removed, and the bucket itself. */
export const objectWrites = (calls: BucketCalls, stat: ObjectStore['stat']): ObjectWrites => {
  const { client, bucket, config, context, checkKey, attempt, bucketExists } = calls;

  const checkHeader = (name: string, value: string, key: string): void => {
    if (!isHeaderValue(value)) {
      throw calls.invalidArgument('put', `${name} ${JSON.stringify(value)} is not a header value.`, key);
    }
  };

  return {
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
        await client.makeBucket(bucket, config.region);
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
