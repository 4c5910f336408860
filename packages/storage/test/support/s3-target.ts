import { randomUUID } from 'node:crypto';

import {
  createObjectStore,
  isStorageError,
  startEmbeddedS3,
  type EmbeddedS3,
  type S3Config,
  type S3ObjectStore,
} from '../../src/index.js';

/**
 * The S3 server integration tests run against: the embedded one by default, or the
 * server named by S3_ENDPOINT (with S3_ACCESS_KEY, S3_SECRET_KEY, optional S3_BUCKET,
 * S3_REGION, S3_PUBLIC_ENDPOINT), e.g. a local MinIO.
 */
export interface S3Target {
  readonly kind: 'embedded' | 'external';
  readonly config: S3Config;
  readonly store: S3ObjectStore;
  /** A fresh key prefix, so tests never see each other's objects (or an earlier run's). */
  newKey(name?: string): string;
  close(): Promise<void>;
}

const externalConfig = (env: NodeJS.ProcessEnv): S3Config | null => {
  const endpoint = env.S3_ENDPOINT;
  if (endpoint === undefined || endpoint === '') return null;
  const { S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey } = env;
  if (!accessKey || !secretKey) {
    throw new Error(
      `S3_ENDPOINT is set (${endpoint}) but S3_ACCESS_KEY or S3_SECRET_KEY is not: set both, ` +
        'or unset S3_ENDPOINT to test against the embedded server.',
    );
  }
  return {
    endpoint,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT,
    accessKey,
    secretKey,
    bucket: env.S3_BUCKET || 'cp-storage-test',
    region: env.S3_REGION,
  };
};

const connect = async (store: S3ObjectStore, endpoint: string): Promise<void> => {
  try {
    await store.ensureBucket();
  } catch (error) {
    if (isStorageError(error) && error.code === 'UNREACHABLE') {
      throw new Error(
        `S3_ENDPOINT is set to ${endpoint} but nothing answers there. Start that server ` +
          '(e.g. `minio server <dir>`, or the minio service in docker/), or unset S3_ENDPOINT ' +
          `to run these tests against the embedded server.\n${error.message}`,
      );
    }
    throw error;
  }
};

export const startS3Target = async (): Promise<S3Target> => {
  const external = externalConfig(process.env);
  let embedded: EmbeddedS3 | undefined;
  const config = external ?? (embedded = await startEmbeddedS3()).config;
  const store = createObjectStore(config);
  const run = randomUUID();
  try {
    await connect(store, config.endpoint);
  } catch (error) {
    await embedded?.close();
    throw error;
  }
  return {
    kind: embedded === undefined ? 'external' : 'embedded',
    config,
    store,
    newKey: (name = 'index.html') => `test/${run}/${randomUUID()}/${name}`,
    close: async () => embedded?.close(),
  };
};

/** Stores bytes with a plain HTTP PUT to a presigned URL (setup for read/copy tests). */
export const putObject = async (store: S3ObjectStore, key: string, body: string | Uint8Array) => {
  const url = await store.presignPut(key, { expiresInSeconds: 60, contentType: 'text/html' });
  const response = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'text/html' },
    body,
  });
  if (!response.ok)
    throw new Error(`PUT ${key} failed: ${response.status} ${await response.text()}`);
};
