import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

/**
 * @20minutes/s3rver is CommonJS without type declarations. It is loaded through
 * createRequire and typed here, narrowly, so that packages compiling this package's
 * sources (through the `source` export condition) need no ambient declaration.
 */
export interface S3rverOptions {
  readonly directory: string;
  readonly silent: boolean;
  readonly resetOnClose: boolean;
  readonly allowMismatchedSignatures: boolean;
  readonly vhostBuckets: boolean;
  readonly configureBuckets: ReadonlyArray<{ readonly name: string }>;
}

/** What s3rver's stores take for a PUT: the body is a stream (a request) or bytes. */
export interface S3rverObject {
  readonly bucket: string;
  readonly key: string;
  content: Readable | Buffer;
}

/** The one store of an s3rver instance (its filesystem store), narrowed to what is wrapped. */
export interface S3rverStore {
  putObject(object: S3rverObject): Promise<unknown>;
  deleteObject(bucket: string, key: string): Promise<void>;
}

export interface S3rverApp {
  /** Creates the configured buckets (idempotent). */
  configureBuckets(): Promise<unknown>;
  /** Koa's request handler for node:http. */
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
  readonly logger: { close(): void };
  readonly store: S3rverStore;
}

interface AwsAccount {
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}

/** s3rver's key store: one registry for the whole process, shared by every instance. */
export interface AwsAccountModule {
  readonly registry: Map<string, AwsAccount>;
  readonly DUMMY_ACCOUNT: AwsAccount;
}

const require = createRequire(import.meta.url);

export const S3rver = require('@20minutes/s3rver') as new (options: S3rverOptions) => S3rverApp;
/** s3rver's error: its error middleware answers with the code's status and S3's error XML. */
export const S3Error = require('@20minutes/s3rver/lib/models/error.js') as new (
  code: string,
  message: string,
  detail?: Record<string, unknown>,
) => Error & { readonly code: string };
// The same module instance s3rver's authentication middleware reads keys from.
export const awsAccounts = require('@20minutes/s3rver/lib/models/account.js') as AwsAccountModule;
