import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defaultDomainConfig } from '@cp/domain';

import { DEFAULT_REGION, resolveS3Config, type S3Config } from '../s3-config.js';
import { fixCopySourceDecoding } from './copy-source-fix.js';
import { carriesSignature, refuseAnonymous } from './refuse-anonymous.js';
import { acquireKeyPair } from './s3rver-keys.js';
import {
  capStoredObjects,
  closeAfterAnswerIfUnread,
  declaresTooLarge,
  refuseTooLarge,
} from './size-limit.js';
import { S3rver } from './s3rver-module.js';

export interface EmbeddedS3Options {
  /** Where objects are kept (created if missing). Default: a temporary directory removed on close. */
  readonly directory?: string;
  /** Default 0: a free port chosen by the system. */
  readonly port?: number;
  /** Interface to listen on. Default 127.0.0.1: the server is for this machine only. */
  readonly host?: string;
  /**
   * Default: `cp-local-<random>`, new for each start, so that several servers can run
   * in one process (s3rver's key registry is process-wide, see s3rver-keys.ts).
   */
  readonly accessKey?: string;
  /** Default: random for each start (nothing stored depends on it). */
  readonly secretKey?: string;
  /** Created at start if missing. Default `components`. */
  readonly bucket?: string;
  /** Written into the returned config; s3rver itself accepts any region. Default us-east-1. */
  readonly region?: string;
  /** Written into the returned config as publicEndpoint. Default: the server's own endpoint. */
  readonly publicEndpoint?: string;
  /**
   * The largest body a PUT may store (MAX_UPLOAD_BYTES); larger ones get 400 EntityTooLarge
   * and store nothing. Default: the domain's default MAX_UPLOAD_BYTES.
   */
  readonly maxPutBytes?: number;
}

export interface EmbeddedS3 {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  /** Ready for createObjectStore. Holds the secret key: do not log it. */
  readonly config: S3Config;
  /** Where the objects are (the given directory, or the temporary one). */
  readonly directory: string;
  /** Stops the server; removes the directory when it was a temporary one. Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_EMBEDDED_BUCKET = 'components';

const listen = (server: Server, port: number, host: string) =>
  new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });

// Clients cannot connect to a wildcard address; they reach it through loopback.
const clientHost = (host: string): string => {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
};

/**
 * Starts an S3-compatible server in this process (@20minutes/s3rver behind a guard
 * that refuses unsigned requests), with the bucket created. Used when S3_ENDPOINT is
 * unset (`pnpm start`, tests). Not for production: see README, "The embedded server".
 */
export const startEmbeddedS3 = async (options: EmbeddedS3Options = {}): Promise<EmbeddedS3> => {
  const host = options.host ?? '127.0.0.1';
  const accessKey = options.accessKey ?? `cp-local-${randomBytes(6).toString('hex')}`;
  const secretKey = options.secretKey ?? randomBytes(24).toString('base64url');
  const bucket = options.bucket ?? DEFAULT_EMBEDDED_BUCKET;
  const region = options.region ?? DEFAULT_REGION;
  const maxPutBytes = options.maxPutBytes ?? defaultDomainConfig.maxUploadBytes;
  if (!Number.isSafeInteger(maxPutBytes) || maxPutBytes < 1) {
    throw new RangeError(
      `maxPutBytes must be a whole number of bytes, at least 1 (got ${maxPutBytes}).`,
    );
  }

  // Validate the bucket name and keys before anything is created, with the same rules
  // (and messages) as createObjectStore; the endpoint is not known yet.
  resolveS3Config({ endpoint: `http://${clientHost(host)}`, accessKey, secretKey, bucket, region });

  const temporary = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'cp-s3-')));
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  };
  if (temporary) cleanups.push(() => rm(directory, { recursive: true, force: true }));

  try {
    if (!temporary) await mkdir(directory, { recursive: true });
    cleanups.push(acquireKeyPair(accessKey, secretKey));
    fixCopySourceDecoding();

    const s3rver = new S3rver({
      directory,
      silent: true,
      resetOnClose: false,
      allowMismatchedSignatures: false,
      // Buckets are addressed path-style; never read a bucket name from the Host header.
      vhostBuckets: false,
      configureBuckets: [{ name: bucket }],
    });
    cleanups.push(() => s3rver.logger.close());
    await s3rver.configureBuckets();
    capStoredObjects(s3rver.store, maxPutBytes);

    const handle = s3rver.callback();
    const guard = (request: IncomingMessage, response: ServerResponse, accept: () => void) => {
      // CORS preflights carry no signature by design; s3rver answers them from bucket CORS rules.
      if (request.method !== 'OPTIONS' && !carriesSignature(request)) refuseAnonymous(response);
      else if (declaresTooLarge(request, maxPutBytes))
        refuseTooLarge(request, response, maxPutBytes);
      else {
        // A body cut at the limit (no declared length) may still be arriving.
        closeAfterAnswerIfUnread(request, response);
        accept();
        handle(request, response);
      }
    };
    const server = createServer((request, response) => guard(request, response, () => undefined));
    // `Expect: 100-continue` (curl sends it for large bodies): refused ones never send the body.
    server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
      guard(request, response, () => response.writeContinue()),
    );
    const address = await listen(server, options.port ?? 0, host);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive sockets (the minio client keeps some) would hold close() open.
          server.closeAllConnections();
        }),
    );

    const endpoint = `http://${clientHost(host)}:${address.port}`;
    const config: S3Config = {
      endpoint,
      publicEndpoint: options.publicEndpoint ?? endpoint,
      accessKey,
      secretKey,
      bucket,
      region,
    };
    resolveS3Config(config);

    let closing: Promise<void> | undefined;
    return {
      endpoint,
      config,
      directory,
      close: () => (closing ??= cleanUp()),
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
};
