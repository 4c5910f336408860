import type { Clock, ObjectStore } from '@cp/domain';

import { type BucketCalls, isHeaderValue } from './bucket-calls.js';
import { encodeKeyPath } from './object-key.js';
import { presignV4 } from './presign-v4.js';

/** S3 accepts presigned URLs valid for at most seven days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** A URL the user's client PUTs one object to, signed for the public origin. */
export const presignPut =
  ({ config, bucket, checkKey, invalidArgument }: BucketCalls, clock: Clock): ObjectStore['presignPut'] =>
  async (key, { expiresInSeconds, contentType, signedAt }) => {
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
    if (!isHeaderValue(contentType)) {
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
      origin: config.publicEndpoint.origin,
      hostHeader: config.publicEndpoint.hostHeader,
      path: `/${bucket}/${encodeKeyPath(key)}`,
      signedHeaders: { 'content-type': contentType },
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      region: config.region,
      date: signedAt ?? clock.now(),
      expiresInSeconds,
    });
  };
