import type { Client } from 'minio';

import { keyProblem } from './object-key.js';
import { createClient } from './minio-client.js';
import type { ResolvedS3Config } from './s3-config.js';
import { StorageError, StorageErrorCode, type StorageOperation } from './storage-error.js';
import { type ErrorContext, toStorageError, toStoreFailure } from './to-storage-error.js';

// A header value curl passes through unchanged: visible ASCII and inner spaces.
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export const isHeaderValue = (value: string): boolean => HEADER_VALUE.test(value);

/**
 * One bucket's client with the checks and the error reporting every operation uses:
 * bad arguments are refused before any request, and a failed request becomes a
 * StorageError that names the operation, the endpoint, the bucket and the key.
 */
export interface BucketCalls {
  readonly client: Client;
  readonly config: ResolvedS3Config;
  readonly bucket: string;
  /** Origin this process talks to. */
  readonly endpoint: string;
  readonly context: (operation: StorageOperation, key?: string) => ErrorContext;
  readonly invalidArgument: (operation: StorageOperation, message: string, key?: string) => StorageError;
  readonly checkKey: (operation: StorageOperation, key: string) => void;
  /** Runs one S3 call and reports any failure as a StorageError. */
  readonly attempt: <T>(operation: StorageOperation, key: string | undefined, call: () => Promise<T>) => Promise<T>;
  readonly bucketExists: (operation: StorageOperation) => Promise<boolean>;
  readonly bucketMissing: (operation: StorageOperation, key?: string) => StorageError;
}

export const bucketCalls = (config: ResolvedS3Config): BucketCalls => {
  const client = createClient(config);
  const { bucket } = config;
  const endpoint = config.endpoint.origin;

  const context = (operation: StorageOperation, key?: string): ErrorContext => ({
    operation,
    endpoint,
    bucket,
    key,
    accessKey: config.accessKey,
  });

  const invalidArgument = (operation: StorageOperation, message: string, key?: string) =>
    new StorageError(StorageErrorCode.InvalidArgument, message, {
      endpoint,
      operation,
      bucket,
      key,
    });

  const attempt = async <T>(
    operation: StorageOperation,
    key: string | undefined,
    call: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw toStoreFailure(error, context(operation, key));
    }
  };

  return {
    client,
    config,
    bucket,
    endpoint,
    context,
    invalidArgument,
    checkKey: (operation, key) => {
      const problem = keyProblem(key);
      if (problem !== null) {
        throw invalidArgument(
          operation,
          `Object key ${JSON.stringify(key)} is not usable: ${problem}.`,
          key,
        );
      }
    },
    attempt,
    bucketExists: (operation) => attempt(operation, undefined, () => client.bucketExists(bucket)),
    bucketMissing: (operation, key) => toStorageError({ code: 'NoSuchBucket' }, context(operation, key)),
  };
};
