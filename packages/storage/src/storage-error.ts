/**
 * Failures of the object store. Every message names the S3 endpoint (never a secret)
 * and says what to check, because the person reading it is usually configuring a
 * deployment, not debugging this package.
 */
export const StorageErrorCode = {
  /** The configuration itself is unusable (bad URL, empty key, invalid bucket name). */
  InvalidConfig: 'INVALID_CONFIG',
  /** A caller passed an unusable argument (bad key, expiry out of range). */
  InvalidArgument: 'INVALID_ARGUMENT',
  /** No answer from the endpoint: refused, DNS failure, reset, timed out. */
  Unreachable: 'UNREACHABLE',
  /** The server refused the access key or the signature (or denied access). */
  BadCredentials: 'BAD_CREDENTIALS',
  /** The configured bucket does not exist on that server. */
  BucketMissing: 'BUCKET_MISSING',
  /** No object at that key (read, or the source of a copy). */
  NotFound: 'NOT_FOUND',
  /** Anything else the server answered; the S3 error code is in the message. */
  Unexpected: 'UNEXPECTED',
} as const;

export type StorageErrorCode = (typeof StorageErrorCode)[keyof typeof StorageErrorCode];

export type StorageOperation =
  'configure' | 'presignPut' | 'stat' | 'copy' | 'read' | 'put' | 'list' | 'remove' | 'ensureBucket';

export interface StorageErrorDetails {
  /** The endpoint the operation talked to, e.g. `http://127.0.0.1:9000`. */
  readonly endpoint: string;
  readonly operation: StorageOperation;
  readonly bucket?: string;
  readonly key?: string;
  /** The S3 error code or network error code behind this error, when there was one. */
  readonly reason?: string;
  readonly cause?: unknown;
}

export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly endpoint: string;
  readonly operation: StorageOperation;
  readonly bucket: string | undefined;
  readonly key: string | undefined;
  readonly reason: string | undefined;

  constructor(
    readonly code: StorageErrorCode,
    message: string,
    details: StorageErrorDetails,
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.endpoint = details.endpoint;
    this.operation = details.operation;
    this.bucket = details.bucket;
    this.key = details.key;
    this.reason = details.reason;
  }
}

export const isStorageError = (error: unknown): error is StorageError =>
  error instanceof StorageError;
