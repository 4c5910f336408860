import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseEnv } from '../src/env.js';

describe('parseEnv', () => {
  it('defaults: port 4200, 64 MiB cache, 60 s TTL, 30 s max-age, 1 KiB compression threshold, /flow from prod until 2027-06-30', () => {
    const env = parseEnv({});
    expect(env.app).toMatchObject({
      port: 4200,
      publicUrl: 'http://localhost:4200',
      flowEnvironment: 'prod',
      loadTimeoutMs: 1000,
      retryAfterSeconds: 5,
      cache: { maxBytes: 64 * 1024 * 1024, ttlSeconds: 60, staleIfErrorSeconds: 86_400, maxAgeSeconds: 30, staleWhileRevalidateSeconds: 30, compressionMinBytes: 1024 },
    });
    expect(env.app.flowSunset.toISOString()).toBe('2027-06-30T00:00:00.000Z');
    expect(env.app.changeStreams).toEqual({ heartbeatMs: 15_000, maxStreamsPerClient: 8, maxStreams: 5000 });
    expect(env.app.trustProxy).toBe(false);
    expect(env.databaseUrl).toBeNull();
    expect(env.s3.endpoint).toBeNull();
  });

  it('reads every setting', () => {
    const env = parseEnv({
      DELIVERY_PORT: '8080',
      DELIVERY_PUBLIC_URL: 'https://cdn.example.com/',
      DELIVERY_CACHE_MAX_BYTES: '0',
      DELIVERY_FLOW_SUNSET: '2028-01-01T00:00:00Z',
      DELIVERY_FLOW_ENVIRONMENT: 'live',
      DATABASE_URL: 'postgresql://u@db:5432/app',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY: 'k',
      S3_SECRET_KEY: 's',
    });
    expect(env.app).toMatchObject({ port: 8080, publicUrl: 'https://cdn.example.com', flowEnvironment: 'live', cache: { maxBytes: 0 } });
    expect(env.app.flowSunset.getUTCFullYear()).toBe(2028);
    const streams = parseEnv({
      DELIVERY_TRUST_PROXY: '10.0.0.0/8, loopback',
      DELIVERY_CHANGES_HEARTBEAT_SECONDS: '30',
      DELIVERY_CHANGES_MAX_STREAMS_PER_CLIENT: '2',
      DELIVERY_CHANGES_MAX_STREAMS: '100',
    }).app;
    expect(streams.changeStreams).toEqual({ heartbeatMs: 30_000, maxStreamsPerClient: 2, maxStreams: 100 });
    expect(streams.trustProxy).toBe('10.0.0.0/8, loopback');
    expect(parseEnv({ DELIVERY_TRUST_PROXY: '1' }).app.trustProxy).toBe(1);
    expect(env.databaseUrl).toBe('postgresql://u@db:5432/app');
  });

  it.each([
    ['DELIVERY_PORT', '70000'],
    ['DELIVERY_PUBLIC_URL', 'ftp://x'],
    ['DELIVERY_CACHE_TTL_SECONDS', '0'],
    ['DELIVERY_CACHE_MAX_BYTES', '-1'],
    ['DELIVERY_FLOW_SUNSET', 'next year'],
    ['DELIVERY_FLOW_ENVIRONMENT', 'Prod!'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['DELIVERY_TRUST_PROXY', 'yes'],
    ['DELIVERY_CHANGES_HEARTBEAT_SECONDS', '0'],
    ['DELIVERY_CHANGES_HEARTBEAT_SECONDS', '301'],
    ['DELIVERY_CHANGES_MAX_STREAMS_PER_CLIENT', '0'],
    ['DELIVERY_CHANGES_MAX_STREAMS', 'many'],
  ])('a bad %s stops with a message naming it', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`Invalid configuration:\\n  ${name}: `));
  });

  it('production needs the database and S3, and does not fall back to the embedded ones', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's' })).toThrow(
      'Invalid configuration:\n  DATABASE_URL: required in production',
    );
  });

  it('S3_ENDPOINT needs the keys', () => {
    expect(() => parseEnv({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_ACCESS_KEY, S3_SECRET_KEY: required/);
  });

  it('the process exits with status 78 and the message on a bad value', () => {
    const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
    const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', main], {
      env: { PATH: process.env.PATH, DELIVERY_PORT: 'nope' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toMatch(/DELIVERY_PORT/);
  });

  test("docker/.env.example's REPLACE-ME placeholders are refused, each secret named, with what to run", () => {
    const values = {
      NODE_ENV: 'production',
      // What compose passes from the unedited example file.
      DATABASE_URL: 'postgresql://cp:REPLACE-ME-postgres-password@postgres:5432/cp',
            S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY: 'cp-app',
      S3_SECRET_KEY: 'REPLACE-ME-s3-secret-key',
    };
    let message = '';
    try {
      parseEnv(values);
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of ['DATABASE_URL', 'S3_SECRET_KEY']) {
      expect(message).toContain(`${name}: still holds the REPLACE-ME placeholder`);
    }
    expect(message).toContain('node docker/generate-secrets.mjs');
  });
});
