import { EnvError } from '@cp/http-runtime';
import { parseEnv } from '../src/env.js';

// The worker's static export settings: what it reads, and each refusal with its message.
const problemsOf = (source: Record<string, string>): string => {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
  return 'accepted';
};

test('without S3 settings there is no static export here; the export bucket and prefix have defaults', () => {
  const env = parseEnv({});
  expect(env.s3).toBeNull();
  expect(env.staticExport).toEqual({
    bucket: 'components-export',
    prefix: '',
    publicUrl: null,
    cacheBytes: 16 * 1024 * 1024,
  });
});

test('every export setting read and shaped', () => {
  const env = parseEnv({
    S3_ENDPOINT: 'https://s3.example.com',
    S3_ACCESS_KEY: 'access',
    S3_SECRET_KEY: 'secret',
    EXPORT_BUCKET: 'public-components',
    EXPORT_PREFIX: 'v1/orgs/',
    EXPORT_PUBLIC_URL: 'https://static.example.com/',
    WORKER_EXPORT_CACHE_BYTES: '0',
  });
  expect(env.s3).toEqual({
    endpoint: 'https://s3.example.com',
    accessKey: 'access',
    secretKey: 'secret',
    bucket: 'components',
    region: 'us-east-1',
  });
  expect(env.staticExport).toEqual({
    bucket: 'public-components',
    prefix: 'v1/orgs/',
    publicUrl: 'https://static.example.com',
    cacheBytes: 0,
  });
});

test.each([
  [
    { S3_ENDPOINT: 'https://s3.example.com' },
    'S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY: set all three, or none (no static export from this worker)',
  ],
  [
    { EXPORT_BUCKET: 'components' },
    'EXPORT_BUCKET: must differ from S3_BUCKET (the export bucket is public; the variants bucket is not)',
  ],
  [
    { EXPORT_PREFIX: 'orgs' },
    'EXPORT_PREFIX: empty, or lower-case path segments each ending with "/", e.g. exports/',
  ],
  [
    { NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/cp' },
    'S3_ENDPOINT: required in production (the static export reads and writes objects)',
  ],
])('%p stops the start: %s', (source, problem) => {
  expect(problemsOf(source)).toBe(`Invalid configuration:\n  ${problem}`);
});
