import { StorageError, StorageErrorCode } from './storage-error.js';

/**
 * Environment variables the apps read (with zod, in their own env.ts) to build an
 * S3Config. Kept here so every app and every error message uses the same names.
 */
export const S3_ENV = {
  endpoint: 'S3_ENDPOINT',
  publicEndpoint: 'S3_PUBLIC_ENDPOINT',
  accessKey: 'S3_ACCESS_KEY',
  secretKey: 'S3_SECRET_KEY',
  bucket: 'S3_BUCKET',
  region: 'S3_REGION',
} as const;

export const DEFAULT_REGION = 'us-east-1';
/**
 * An S3 server silent this long is treated as down (UnavailableError): callers answer
 * "retry" promptly instead of holding their own clients while a hung store times out.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 2_000;

/** Connection settings for createObjectStore. Plain data: the apps own the parsing. */
export interface S3Config {
  /** S3_ENDPOINT: where this process reaches the server, e.g. `http://127.0.0.1:9000`. */
  readonly endpoint: string;
  /**
   * S3_PUBLIC_ENDPOINT: the origin written into presigned URLs, i.e. what the user's
   * curl reaches (a public host name, a proxy). Default: `endpoint`.
   */
  readonly publicEndpoint?: string | undefined;
  /** S3_ACCESS_KEY */
  readonly accessKey: string;
  /** S3_SECRET_KEY. Never written into a message or a log. */
  readonly secretKey: string;
  /** S3_BUCKET */
  readonly bucket: string;
  /** S3_REGION, default `us-east-1`. Signatures are scoped to it; MinIO and AWS check it. */
  readonly region?: string | undefined;
  /** Socket timeout per request (connecting, and any silence after), default 2 s. */
  readonly requestTimeoutMs?: number | undefined;
}

/** An endpoint URL taken apart the way the minio client and the signer need it. */
export interface S3Endpoint {
  /** `http://host:port`, as shown in messages. */
  readonly origin: string;
  readonly useSSL: boolean;
  /** Host name or IP, without IPv6 brackets. */
  readonly hostname: string;
  readonly port: number;
  /** The Host header a client sends: host, plus `:port` unless it is the scheme's default. */
  readonly hostHeader: string;
}

export interface ResolvedS3Config {
  readonly endpoint: S3Endpoint;
  readonly publicEndpoint: S3Endpoint;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly bucket: string;
  readonly region: string;
  readonly requestTimeoutMs: number;
}

const invalid = (origin: string, message: string): StorageError =>
  new StorageError(StorageErrorCode.InvalidConfig, message, {
    endpoint: origin,
    operation: 'configure',
  });

export const parseEndpoint = (value: string, envName: string): S3Endpoint => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Echo the value only when it cannot be a URL with credentials in it.
    const shown = value.includes('@') ? '' : ` (got "${value}")`;
    throw invalid(
      value.includes('@') ? '(invalid URL)' : value,
      `${envName} must be a URL such as http://127.0.0.1:9000${shown}.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid(
      url.origin,
      `${envName} must not contain credentials; set ${S3_ENV.accessKey} and ${S3_ENV.secretKey} instead.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(
      url.origin,
      `${envName} must start with http:// or https:// (got "${url.protocol}").`,
    );
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw invalid(
      url.origin,
      `${envName} must be an origin only (scheme, host and port, no path): got "${value}". ` +
        'Buckets are addressed path-style under it.',
    );
  }
  const useSSL = url.protocol === 'https:';
  return {
    origin: url.origin,
    useSSL,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (useSSL ? 443 : 80) : Number(url.port),
    hostHeader: url.host,
  };
};

// S3's bucket naming rules (the subset every S3 implementation accepts).
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IP_LIKE = /^\d+\.\d+\.\d+\.\d+$/;
const REGION = /^[A-Za-z0-9._-]+$/;

const assertKeyLike = (origin: string, value: string, envName: string): void => {
  if (value === '') throw invalid(origin, `${envName} is empty.`);
  if (value.trim() !== value) {
    // Says where the problem is without showing the value: it may be the secret.
    throw invalid(
      origin,
      `${envName} has leading or trailing whitespace (a newline from a secrets file?). Remove it.`,
    );
  }
};

/** Validates a config and fills in defaults. Throws StorageError INVALID_CONFIG. */
export const resolveS3Config = (config: S3Config): ResolvedS3Config => {
  const endpoint = parseEndpoint(config.endpoint, S3_ENV.endpoint);
  const publicEndpoint =
    config.publicEndpoint === undefined || config.publicEndpoint === ''
      ? endpoint
      : parseEndpoint(config.publicEndpoint, S3_ENV.publicEndpoint);
  assertKeyLike(endpoint.origin, config.accessKey, S3_ENV.accessKey);
  assertKeyLike(endpoint.origin, config.secretKey, S3_ENV.secretKey);
  if (
    !BUCKET_NAME.test(config.bucket) ||
    IP_LIKE.test(config.bucket) ||
    config.bucket.includes('..')
  ) {
    throw invalid(
      endpoint.origin,
      `${S3_ENV.bucket} "${config.bucket}" is not a valid bucket name: 3 to 63 lowercase letters, ` +
        'digits, dots or hyphens, starting and ending with a letter or digit.',
    );
  }
  const region =
    config.region === undefined || config.region === '' ? DEFAULT_REGION : config.region;
  if (!REGION.test(region)) {
    throw invalid(
      endpoint.origin,
      `${S3_ENV.region} "${region}" is not a region name such as us-east-1.`,
    );
  }
  const requestTimeoutMs = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs <= 0) {
    throw invalid(
      endpoint.origin,
      `requestTimeoutMs must be a positive integer (got ${requestTimeoutMs}).`,
    );
  }
  return {
    endpoint,
    publicEndpoint,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    bucket: config.bucket,
    region,
    requestTimeoutMs,
  };
};
