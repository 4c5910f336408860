import { randomUUID } from 'node:crypto';

import { defaultDomainConfig, isUnavailable } from '@cp/domain';
import { Client } from 'minio';

import {
  createObjectStore,
  startEmbeddedS3,
  type EmbeddedS3,
  type S3Config,
  type S3ObjectStore,
} from '../../src/index.js';

/**
 * The S3 server integration tests run against: the embedded one by default, or the
 * server named by S3_ENDPOINT (with S3_ACCESS_KEY, S3_SECRET_KEY, optional S3_BUCKET,
 * S3_REGION, S3_PUBLIC_ENDPOINT, S3_MAX_PUT_BYTES), e.g. the Ceph RADOS Gateway that
 * `scripts/rgw.sh` starts.
 */
export interface S3Target {
  readonly kind: 'embedded' | 'external';
  readonly config: S3Config;
  /**
   * The largest PUT the server itself accepts: the embedded server's (the default
   * MAX_UPLOAD_BYTES), the S3_MAX_PUT_BYTES setting for an external one (rgw.sh sets
   * it), `unknown` without it.
   */
  readonly sizeLimit: number | 'unknown';
  readonly store: S3ObjectStore;
  /** A fresh key under this run's prefix, so tests never see each other's objects. */
  newKey(name?: string): string;
  /** Removes, on close, a bucket a test created (on an external server; harmless otherwise). */
  dropBucketOnClose(bucket: string): void;
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

const externalSizeLimit = (env: NodeJS.ProcessEnv): number | 'unknown' => {
  const value = env.S3_MAX_PUT_BYTES;
  if (value === undefined || value === '') return 'unknown';
  if (!/^[1-9][0-9]*$/.test(value)) {
    throw new Error(`S3_MAX_PUT_BYTES must be a number of bytes (got "${value}").`);
  }
  return Number(value);
};

const connect = async (store: S3ObjectStore, endpoint: string): Promise<void> => {
  try {
    await store.ensureBucket();
  } catch (error) {
    if (isUnavailable(error)) {
      throw new Error(
        `S3_ENDPOINT is set to ${endpoint} but nothing answers there. Start that server ` +
          '(a local Ceph RADOS Gateway: `eval "$(packages/storage/scripts/rgw.sh start)"` ' +
          'sets every S3_* variable), or unset S3_ENDPOINT to run these tests against the ' +
          `embedded server.\n${error.message}`,
      );
    }
    throw error;
  }
};

/** What startS3Target will run against, known before it starts (for test names and skips). */
export const plannedS3Target = (
  env: NodeJS.ProcessEnv = process.env,
): Pick<S3Target, 'kind' | 'sizeLimit'> =>
  env.S3_ENDPOINT
    ? { kind: 'external', sizeLimit: externalSizeLimit(env) }
    : { kind: 'embedded', sizeLimit: defaultDomainConfig.maxUploadBytes };

export const startS3Target = async (): Promise<S3Target> => {
  const external = externalConfig(process.env);
  const { sizeLimit } = plannedS3Target();
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
  const buckets = new Set<string>();
  return {
    kind: embedded === undefined ? 'external' : 'embedded',
    config,
    sizeLimit,
    store,
    newKey: (name = 'index.html') => `test/${run}/${randomUUID()}/${name}`,
    dropBucketOnClose: (bucket) => void buckets.add(bucket),
    close: async () => {
      // An embedded server's temporary directory goes away on its own; an external
      // server keeps what tests wrote unless it is removed here.
      if (embedded === undefined) await removeTestData(config, `test/${run}/`, [...buckets]);
      await embedded?.close();
    },
  };
};

export const adminClient = (config: S3Config): Client => {
  const url = new URL(config.endpoint);
  return new Client({
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? undefined : Number(url.port),
    useSSL: url.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region || 'us-east-1',
    pathStyle: true,
  });
};

const removeAll = async (client: Client, bucket: string, prefix: string) => {
  const names: string[] = [];
  for await (const item of client.listObjectsV2(bucket, prefix, true)) {
    const { name } = item as { name?: string };
    if (name !== undefined) names.push(name);
  }
  // One DELETE each: s3rver's multi-object delete mishandles keys with XML entities.
  for (const name of names) await client.removeObject(bucket, name);
};

const removeTestData = async (config: S3Config, prefix: string, buckets: string[]) => {
  const client = adminClient(config);
  await removeAll(client, config.bucket, prefix);
  for (const bucket of buckets) {
    if (!(await client.bucketExists(bucket))) continue;
    await removeAll(client, bucket, '');
    await client.removeBucket(bucket);
  }
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
