import { Dependency, UnavailableError, isUnavailable } from '@cp/domain';

import { S3_ENV } from './s3-config.js';
import { StorageError, StorageErrorCode, type StorageOperation } from './storage-error.js';

export interface ErrorContext {
  readonly operation: StorageOperation;
  /** Origin of the endpoint the request went to. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKey: string;
  readonly key?: string | undefined;
}

// Node's network error codes: nothing (usable) answered at that address.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'EADDRNOTAVAIL',
  'EPROTO',
]);

// S3 error codes meaning "who you are, or how you signed, was refused".
const CREDENTIAL_CODES = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'InvalidToken',
  'ExpiredToken',
  'AuthorizationHeaderMalformed',
  'InvalidRegion',
  'AuthorizationQueryParametersError',
]);

const REGION_CODES = new Set(['AuthorizationHeaderMalformed', 'InvalidRegion']);

/** The S3 or network error code carried by an error from minio or node:http. */
export const errorCode = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const { code } = error;
  return typeof code === 'string' && code !== '' ? code : undefined;
};

const isTlsFailure = (code: string): boolean =>
  code.startsWith('ERR_SSL') ||
  code.startsWith('ERR_TLS') ||
  code.startsWith('UNABLE_TO_') ||
  code.includes('CERT') ||
  code === 'EPROTO';

/** Turns whatever minio or the network threw into a StorageError that says what to check. */
export const toStorageError = (error: unknown, context: ErrorContext): StorageError => {
  if (error instanceof StorageError) return error;
  const reason = errorCode(error);
  const { endpoint, bucket, key, operation } = context;
  const details = { endpoint, bucket, key, operation, reason, cause: error };
  const doing =
    key === undefined ? `${operation} on bucket "${bucket}"` : `${operation} of "${key}"`;

  if (reason !== undefined && (NETWORK_CODES.has(reason) || isTlsFailure(reason))) {
    const hint = isTlsFailure(reason)
      ? ` TLS failed: check whether the server speaks ${endpoint.startsWith('https:') ? 'http' : 'https'} instead, and its certificate.`
      : '';
    return new StorageError(
      StorageErrorCode.Unreachable,
      `Cannot reach the S3 server at ${endpoint} (${reason}) for ${doing}. ` +
        `Is the S3 server running at ${endpoint}? Set ${S3_ENV.endpoint} to its URL.${hint}`,
      details,
    );
  }
  if (reason !== undefined && CREDENTIAL_CODES.has(reason)) {
    const regionHint = REGION_CODES.has(reason)
      ? ` Check that ${S3_ENV.region} matches the server's region.`
      : '';
    return new StorageError(
      StorageErrorCode.BadCredentials,
      `The S3 server at ${endpoint} refused ${doing} (${reason}) for access key ` +
        `"${context.accessKey}". Check ${S3_ENV.accessKey} and ${S3_ENV.secretKey}, and that ` +
        `this key may use bucket "${bucket}".${regionHint}`,
      details,
    );
  }
  if (reason === 'NoSuchBucket') {
    return new StorageError(
      StorageErrorCode.BucketMissing,
      `Bucket "${bucket}" does not exist at ${endpoint}. Create it (ensureBucket() does, at ` +
        `start) or set ${S3_ENV.bucket} to an existing bucket.`,
      details,
    );
  }
  if (reason === 'NoSuchKey' || reason === 'NotFound') {
    return new StorageError(
      StorageErrorCode.NotFound,
      `No object "${key ?? ''}" in bucket "${bucket}" at ${endpoint}.`,
      details,
    );
  }
  const what = error instanceof Error ? error.message : String(error);
  // minio turns an error answer that is not S3 XML (a web page) into an empty S3Error.
  const answer =
    reason === undefined && what === ''
      ? 'answered with something that is not an S3 response'
      : `failed${reason === undefined ? '' : ` (${reason})`}: ${what}`;
  return new StorageError(
    StorageErrorCode.Unexpected,
    `The S3 server at ${endpoint} ${answer}, for ${doing}. ` +
      `Check that ${S3_ENV.endpoint} points at an S3-compatible server (MinIO, AWS S3).`,
    details,
  );
};

/**
 * What the object store throws: the domain's UnavailableError when the server did not
 * answer (refused, reset, timed out: retrying may succeed), a StorageError otherwise.
 * The StorageError, with the endpoint and what to check, is the cause.
 */
export const toStoreFailure = (
  error: unknown,
  context: ErrorContext,
): StorageError | UnavailableError => {
  if (isUnavailable(error)) return error;
  const failure = toStorageError(error, context);
  return failure.code === StorageErrorCode.Unreachable
    ? new UnavailableError(Dependency.ObjectStore, { cause: failure })
    : failure;
};
