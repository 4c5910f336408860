import { z } from 'zod';
import { databaseEnvShape, databaseSettings, objectStoreEnvShape, storageEnvShape, storageProblems, storageSettings } from '../src/index.js';

/* src/storage-env.ts: the storage settings every service spreads into its own EnvSchema. */

const StorageEnv = z.object(storageEnvShape);
const parse = (source: Record<string, string>) => StorageEnv.parse(source);
const issuesOf = (source: Record<string, string>): string[] => {
  const parsed = StorageEnv.safeParse(source);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};
const SERVER = { S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'access', S3_SECRET_KEY: 'secret' };

test('no setting: PGlite in .data/pglite and the embedded S3 server, bucket "components" in us-east-1', () => {
  expect(storageSettings(parse({}))).toEqual({
    databaseUrl: null,
    pgliteDataDir: '.data/pglite',
    s3: { endpoint: null, publicEndpoint: null, accessKey: null, secretKey: null, bucket: 'components', region: 'us-east-1' },
  });
});

test('every setting read', () => {
  const env = parse({
    DATABASE_URL: 'postgresql://app@db:5432/app',
    PGLITE_DATA_DIR: '/tmp/pglite',
    ...SERVER,
    S3_PUBLIC_ENDPOINT: 'https://s3.example.com',
    S3_BUCKET: 'bucket',
    S3_REGION: 'eu-west-1',
  });
  expect(storageSettings(env)).toEqual({
    databaseUrl: 'postgresql://app@db:5432/app',
    pgliteDataDir: '/tmp/pglite',
    s3: {
      endpoint: 'http://minio:9000',
      publicEndpoint: 'https://s3.example.com',
      accessKey: 'access',
      secretKey: 'secret',
      bucket: 'bucket',
      region: 'eu-west-1',
    },
  });
});

test('the shapes: database, object store, and both plus S3_PUBLIC_ENDPOINT', () => {
  expect(Object.keys(databaseEnvShape)).toEqual(['DATABASE_URL', 'PGLITE_DATA_DIR']);
  expect(Object.keys(objectStoreEnvShape)).toEqual(['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET', 'S3_REGION']);
  expect(Object.keys(storageEnvShape)).toEqual([...Object.keys(databaseEnvShape), ...Object.keys(objectStoreEnvShape), 'S3_PUBLIC_ENDPOINT']);
  expect(databaseSettings(z.object(databaseEnvShape).parse({ DATABASE_URL: 'postgres://db/app' }))).toEqual({
    databaseUrl: 'postgres://db/app',
    pgliteDataDir: '.data/pglite',
  });
});

test.each([
  ['DATABASE_URL', 'mysql://db/app', 'DATABASE_URL: must be a postgres:// or postgresql:// URL'],
  ['PGLITE_DATA_DIR', '', 'PGLITE_DATA_DIR: Too small: expected string to have >=1 characters'],
  ['S3_ENDPOINT', 'minio:9000', 'S3_ENDPOINT: must be an http(s) URL'],
  ['S3_PUBLIC_ENDPOINT', 'ftp://s3.example.com', 'S3_PUBLIC_ENDPOINT: must be an http(s) URL'],
  ['S3_BUCKET', 'ab', 'S3_BUCKET: Too small: expected string to have >=3 characters'],
])('%s=%p is refused with a message naming it', (name, value, problem) => {
  expect(issuesOf({ [name]: value })).toEqual([problem]);
});

describe('storageProblems', () => {
  test('development: none set, or a complete server, is fine', () => {
    expect(storageProblems(parse({}), { production: false })).toEqual([]);
    expect(storageProblems(parse(SERVER), { production: false })).toEqual([]);
  });

  test('S3_ENDPOINT needs both keys; reported alone, even in production', () => {
    for (const production of [false, true]) {
      expect(storageProblems(parse({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'access' }), { production })).toEqual([
        'S3_ACCESS_KEY, S3_SECRET_KEY: required when S3_ENDPOINT is set',
      ]);
    }
  });

  test('production needs the database and S3, and does not fall back to the embedded ones', () => {
    expect(storageProblems(parse({}), { production: true })).toEqual(['DATABASE_URL: required in production', 'S3_ENDPOINT: required in production']);
    expect(storageProblems(parse(SERVER), { production: true })).toEqual(['DATABASE_URL: required in production']);
    expect(storageProblems(parse({ ...SERVER, DATABASE_URL: 'postgresql://app@db:5432/app' }), { production: true })).toEqual([]);
  });
});
