import type { Clock, ExportStore, ObjectStore } from '@cp/domain';

import { bucketCalls } from './bucket-calls.js';
import { objectReads } from './object-reads.js';
import { objectWrites, type ObjectWrites } from './object-writes.js';
import { presignPut } from './presign-put.js';
import { resolveS3Config, type S3Config } from './s3-config.js';

/** The domain's ObjectStore (and ExportStore, for the export bucket), plus what an app needs at start. */
export interface S3ObjectStore extends ObjectStore, ExportStore, Pick<ObjectWrites, 'ensureBucket'> {
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

/**
 * The domain's ObjectStore over the minio client (S3 API, path-style addressing).
 * Validates the config at once (StorageError INVALID_CONFIG) but makes no request:
 * call ensureBucket() at start to check the server, the credentials and the bucket.
 */
export const createObjectStore = (config: S3Config, deps: ObjectStoreDeps = {}): S3ObjectStore => {
  const resolved = resolveS3Config(config);
  const calls = bucketCalls(resolved);
  const reads = objectReads(calls);
  return {
    bucket: calls.bucket,
    endpoint: calls.endpoint,
    publicEndpoint: resolved.publicEndpoint.origin,
    presignPut: presignPut(calls, deps.clock ?? systemClock),
    ...reads,
    ...objectWrites(calls, reads.stat),
  };
};
