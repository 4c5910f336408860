import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseEnv } from '../src/env.js';

describe('env', () => {
  test('production needs the database and S3, and does not fall back to the embedded ones', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(
      'Invalid configuration:\n  DATABASE_URL: required in production\n  S3_ENDPOINT: required in production',
    );
    const env = parseEnv({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://app@db:5432/app',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY: 'key',
      S3_SECRET_KEY: 'secret',
    });
    expect(env.databaseUrl).toBe('postgresql://app@db:5432/app');
  });

  test('defaults', () => {
    const env = parseEnv({});
    expect(env.app).toMatchObject({
      port: 4100,
      publicUrl: 'http://localhost:4100/mcp',
      allowedHosts: ['localhost:4100', '127.0.0.1:4100', '[::1]:4100'],
      allowedOrigins: ['http://localhost:4100', 'http://127.0.0.1:4100', 'http://[::1]:4100'],
      dashboardUrl: 'http://localhost:4300',
      auth: { issuer: 'http://localhost:4000', jwksUrl: null, grantCacheSeconds: 30, tokenCacheSeconds: 300, jwksMaxAgeMs: 300_000 },
      rateLimit: { userPoints: 300, ipPoints: 60, windowSeconds: 60, uploadPoints: 20, uploadWindowSeconds: 600 },
    });
    expect(env.redisUrl).toBeNull();
    expect(env.maxUploadBytes).toBe(5 * 1024 * 1024);
  });

  test('MCP_TOKEN_CACHE_SECONDS bounds both the verified-token cache and the JWKS cache', () => {
    expect(parseEnv({ MCP_TOKEN_CACHE_SECONDS: '120' }).app.auth).toMatchObject({ tokenCacheSeconds: 120, jwksMaxAgeMs: 120_000 });
  });

  test('a public URL adds its host and origin to the loopback defaults', () => {
    const env = parseEnv({ MCP_PUBLIC_URL: 'https://mcp.example.com/mcp' });
    expect(env.app.allowedHosts[0]).toBe('mcp.example.com');
    expect(env.app.allowedOrigins[0]).toBe('https://mcp.example.com');
  });

  test.each([
    [{ MCP_PORT: 'abc' }, 'MCP_PORT'],
    [{ MCP_PUBLIC_URL: 'not a url' }, 'MCP_PUBLIC_URL: must be an http(s) URL'],
    [{ MCP_PUBLIC_URL: 'http://localhost:4100/mcp?x=1' }, 'MCP_PUBLIC_URL: must not carry a query or a fragment'],
    [{ AUTH_GRANT_CACHE_SECONDS: '60' }, 'AUTH_GRANT_CACHE_SECONDS: must be at most 30 (revocation must apply within 30 s)'],
    [{ MCP_TOKEN_CACHE_SECONDS: '3600' }, 'MCP_TOKEN_CACHE_SECONDS: must be at most 900 (a signing key removed from the JWKS must stop working within minutes)'],
    [{ MCP_TOKEN_CACHE_SECONDS: '0' }, 'MCP_TOKEN_CACHE_SECONDS: must be at least 30 (below, every request would fetch the JWKS again)'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL: must be a redis:// or rediss:// URL'],
    [{ RATE_LIMIT_USER_POINTS: '0' }, 'RATE_LIMIT_USER_POINTS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a postgres:// or postgresql:// URL'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_ACCESS_KEY, S3_SECRET_KEY: required when S3_ENDPOINT is set'],
  ])('%o is refused with a message naming the variable', (values, message) => {
    expect(() => parseEnv(values)).toThrow(message);
  });

  test('loadEnv stops the process with the message and status 78', () => {
    const script = "import { loadEnv } from './src/env.ts'; loadEnv();";
    const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NODE_OPTIONS: '', MCP_PORT: 'seventy' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('Invalid configuration:\n  MCP_PORT:');
  });

  test("docker/.env.example's REPLACE-ME placeholders are refused, each secret named, with what to run", () => {
    const values = {
      NODE_ENV: 'production',
      // What compose passes from the unedited example file.
      DATABASE_URL: 'postgresql://cp:REPLACE-ME-postgres-password@postgres:5432/cp',
      REDIS_URL: 'redis://:REPLACE-ME-redis-password@redis:6379',
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
    for (const name of ['DATABASE_URL', 'S3_SECRET_KEY', 'REDIS_URL']) {
      expect(message).toContain(`${name}: still holds the REPLACE-ME placeholder`);
    }
    expect(message).toContain('node docker/generate-secrets.mjs');
  });
});
