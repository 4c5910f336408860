import type { Readable } from 'node:stream';

import { Client } from 'minio';

import { transportWithTimeout } from './http-transport.js';
import type { ResolvedS3Config } from './s3-config.js';
import { StorageError, StorageErrorCode } from './storage-error.js';

export const readAll = async (stream: Readable): Promise<Uint8Array> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

export const createClient = (config: ResolvedS3Config): Client => {
  try {
    return new Client({
      endPoint: config.endpoint.hostname,
      port: config.endpoint.port,
      useSSL: config.endpoint.useSSL,
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      // Set explicitly so the client never asks the server for the bucket's region.
      region: config.region,
      pathStyle: true,
      transport: transportWithTimeout(config.endpoint.useSSL, config.requestTimeoutMs),
    });
  } catch (error) {
    // minio validates the host name (it refuses, e.g., underscores).
    throw new StorageError(
      StorageErrorCode.InvalidConfig,
      `S3_ENDPOINT ${config.endpoint.origin} is not usable by the S3 client: ${(error as Error).message}`,
      { endpoint: config.endpoint.origin, operation: 'configure', cause: error },
    );
  }
};
