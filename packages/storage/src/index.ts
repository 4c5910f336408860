export { createObjectStore } from './object-store.js';
export { MAX_PRESIGN_SECONDS } from './presign-put.js';
export type { ObjectStoreDeps, S3ObjectStore } from './object-store.js';
export { S3_ENV, DEFAULT_REGION, DEFAULT_REQUEST_TIMEOUT_MS } from './s3-config.js';
export type { S3Config } from './s3-config.js';
export { StorageError, StorageErrorCode, isStorageError } from './storage-error.js';
export type { StorageErrorDetails, StorageOperation } from './storage-error.js';
export { startEmbeddedS3 } from './embedded/embedded-s3.js';
export type { EmbeddedS3, EmbeddedS3Options } from './embedded/embedded-s3.js';
