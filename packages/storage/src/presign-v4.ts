import { createHash, createHmac } from 'node:crypto';

import { encodeRfc3986 } from './object-key.js';

/**
 * AWS Signature Version 4, query-string form (a presigned URL).
 *
 * Why not the minio client's presignedPutObject: it never signs Content-Type (its
 * getSignedHeaders drops the header on purpose, for browsers), and we want the URL to
 * accept only the content type the upload tool announces. This is the documented
 * algorithm (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html);
 * the unit tests check it against AWS's published example and against minio's signer.
 */
export interface PresignV4Request {
  readonly method: string;
  /** `http://host:port`, written as-is in front of the path. */
  readonly origin: string;
  /** The Host header the client will send for that origin. */
  readonly hostHeader: string;
  /** The URL path, already encoded (segments RFC 3986-encoded, `/` kept). */
  readonly path: string;
  /** Further headers the client must send with exactly these values (names lowercase). */
  readonly signedHeaders?: Readonly<Record<string, string>>;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly region: string;
  readonly service?: string;
  readonly date: Date;
  readonly expiresInSeconds: number;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

const sha256Hex = (value: string): string =>
  createHash('sha256').update(value, 'utf8').digest('hex');
const hmac = (key: string | Buffer, value: string): Buffer =>
  createHmac('sha256', key).update(value, 'utf8').digest();

/** `20130524T000000Z` */
export const amzDate = (date: Date): string =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

// SigV4 canonical header values: trimmed, inner runs of spaces collapsed to one.
const canonicalValue = (value: string): string => value.trim().replace(/ +/g, ' ');

export const presignV4 = (request: PresignV4Request): string => {
  const service = request.service ?? 's3';
  const timestamp = amzDate(request.date);
  const day = timestamp.slice(0, 8);
  const scope = `${day}/${request.region}/${service}/aws4_request`;

  const headers = new Map<string, string>([['host', request.hostHeader]]);
  for (const [name, value] of Object.entries(request.signedHeaders ?? {})) {
    headers.set(name.toLowerCase(), canonicalValue(value));
  }
  const headerNames = [...headers.keys()].sort();
  const signedHeaders = headerNames.join(';');
  const canonicalHeaders = headerNames
    .map((name) => `${name}:${headers.get(name) ?? ''}\n`)
    .join('');

  const query = [
    ['X-Amz-Algorithm', ALGORITHM],
    ['X-Amz-Credential', `${request.accessKey}/${scope}`],
    ['X-Amz-Date', timestamp],
    ['X-Amz-Expires', String(request.expiresInSeconds)],
    ['X-Amz-SignedHeaders', signedHeaders],
  ]
    .map(([name = '', value = '']) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`)
    .sort()
    .join('&');

  const canonicalRequest = [
    request.method,
    request.path,
    query,
    canonicalHeaders,
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [ALGORITHM, timestamp, scope, sha256Hex(canonicalRequest)].join('\n');

  const signingKey = [request.region, service, 'aws4_request'].reduce<Buffer>(
    (key, part) => hmac(key, part),
    hmac(`AWS4${request.secretKey}`, day),
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');

  return `${request.origin}${request.path}?${query}&X-Amz-Signature=${signature}`;
};
