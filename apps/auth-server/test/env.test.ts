import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvError } from '@cp/http-runtime';
import { parseEnv } from '../src/env.js';
import { loadOrCreateLocalSecrets } from '../src/keys/local-secrets.js';
import { generateSigningKey, parseSigningKeys } from '../src/keys/signing-keys.js';

const problemsOf = (env: Record<string, string>): string => {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
};

test('defaults: issuer http://localhost:4000, port 4000, the MCP resource, sign-up on, local secrets', () => {
  const env = parseEnv({});
  expect(env.config.issuer).toBe('http://localhost:4000');
  expect(env.port).toBe(4000);
  expect(env.config.mcpResourceUrl).toBe('http://localhost:4100/mcp');
  expect(env.config.signupEnabled).toBe(true);
  expect(env.config.secureCookies).toBe(false);
  expect(env.signingKeys).toBeNull();
  expect(env.localSecretsFile).toBe('.data/auth/secrets.json');
});

test('AUTH_CIMD_ALLOW_LOOPBACK: off by default; true allows loopback documents in development; other values are named', () => {
  expect(parseEnv({}).config.cimd).toMatchObject({ allowLoopback: false, maxBytes: 5120, timeoutMs: 3000, cacheSeconds: { min: 60, max: 86400 }, failureCacheSeconds: 10 });
  expect(parseEnv({ AUTH_CIMD_ALLOW_LOOPBACK: 'true' }).config.cimd.allowLoopback).toBe(true);
  expect(problemsOf({ AUTH_CIMD_ALLOW_LOOPBACK: 'yes please' })).toContain('AUTH_CIMD_ALLOW_LOOPBACK');
});

test('AUTH_CI_DEV_ISSUERS: unset means the production registry only; a JSON list adds development issuers; bad values are named', () => {
  expect(parseEnv({}).config.exchange.ciIssuers).toEqual([
    { issuer: 'https://token.actions.githubusercontent.com', provider: 'github' },
    { issuer: 'https://gitlab.com', provider: 'gitlab' },
  ]);
  const added = parseEnv({ AUTH_CI_DEV_ISSUERS: '[{ "issuer": "http://127.0.0.1:4600", "provider": "github" }]' }).config.exchange.ciIssuers;
  expect(added).toEqual([
    { issuer: 'https://token.actions.githubusercontent.com', provider: 'github' },
    { issuer: 'https://gitlab.com', provider: 'gitlab' },
    { issuer: 'http://127.0.0.1:4600', provider: 'github' },
  ]);
  expect(problemsOf({ AUTH_CI_DEV_ISSUERS: 'http://127.0.0.1:4600' })).toContain('AUTH_CI_DEV_ISSUERS: must be JSON');
  expect(problemsOf({ AUTH_CI_DEV_ISSUERS: '{"issuer":"http://127.0.0.1:4600","provider":"github"}' })).toContain('AUTH_CI_DEV_ISSUERS: must be a JSON list');
  expect(problemsOf({ AUTH_CI_DEV_ISSUERS: '[{"issuer":"http://127.0.0.1:4600","provider":"jenkins"}]' })).toContain('AUTH_CI_DEV_ISSUERS.0.provider');
  expect(problemsOf({ AUTH_CI_DEV_ISSUERS: '[{"issuer":"ftp://127.0.0.1","provider":"github"}]' })).toContain('AUTH_CI_DEV_ISSUERS.0.issuer: issuer must be an http(s) URL');
  expect(problemsOf({ AUTH_CI_DEV_ISSUERS: '[{"issuer":"https://gitlab.com","provider":"github"}]' })).toContain('AUTH_CI_DEV_ISSUERS: lists a production issuer');
  expect(problemsOf({ AUTH_CI_DEV_ISSUERS: '[{"issuer":"http://a.test","provider":"github"},{"issuer":"http://a.test","provider":"gitlab"}]' })).toContain(
    'AUTH_CI_DEV_ISSUERS: lists an issuer twice',
  );
});

test('REDIS_URL: unset or empty means memory counters; anything but redis:// or rediss:// is named', () => {
  expect(parseEnv({}).redisUrl).toBeNull();
  expect(parseEnv({ REDIS_URL: '' }).redisUrl).toBeNull();
  expect(parseEnv({ REDIS_URL: 'rediss://:pw@redis.internal:6380' }).redisUrl).toBe('rediss://:pw@redis.internal:6380');
  expect(problemsOf({ REDIS_URL: 'http://redis:6379' })).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
});

test('each bad value is named', () => {
  const message = problemsOf({ AUTH_PORT: 'x', AUTH_ISSUER: 'ftp://a', AUTH_SIGNUP_ENABLED: 'maybe', MCP_PUBLIC_URL: 'nope' });
  for (const name of ['AUTH_PORT', 'AUTH_ISSUER', 'AUTH_SIGNUP_ENABLED', 'MCP_PUBLIC_URL']) expect(message).toContain(name);
  expect(problemsOf({ AUTH_ISSUER: 'http://localhost:4000/oidc' })).toContain('AUTH_ISSUER: must be an origin');
  expect(problemsOf({ AUTH_COOKIE_KEYS: 'short' })).toContain('AUTH_COOKIE_KEYS');
  expect(problemsOf({ AUTH_SIGNING_KEYS: '{"keys":[{"kty":"RSA"}]}' })).toContain('AUTH_SIGNING_KEYS: key 1: must be an EC P-256 key');
});

describe('production', () => {
  const secrets = async () => ({
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [await generateSigningKey()] }),
    AUTH_COOKIE_KEYS: 'k'.repeat(32),
    DATABASE_URL: 'postgresql://db.internal/app',
  });

  test('refuses unset secrets, naming each', () => {
    const message = problemsOf({ NODE_ENV: 'production', AUTH_ISSUER: 'https://auth.example.com', MCP_PUBLIC_URL: 'https://mcp.example.com/mcp' });
    expect(message).toContain('AUTH_SIGNING_KEYS: required in production');
    expect(message).toContain('AUTH_COOKIE_KEYS: required in production');
    expect(message).toContain('DATABASE_URL: required in production');
  });

  test('refuses http public URLs other than loopback', async () => {
    const message = problemsOf({ NODE_ENV: 'production', ...(await secrets()), AUTH_ISSUER: 'http://auth.example.com', MCP_PUBLIC_URL: 'http://mcp.example.com/mcp' });
    expect(message).toContain('AUTH_ISSUER: must be an https URL in production');
    expect(message).toContain('MCP_PUBLIC_URL: must be an https URL in production');
  });

  test('accepts https (and loopback http) with every secret set; cookies become Secure', async () => {
    const env = parseEnv({ NODE_ENV: 'production', ...(await secrets()), AUTH_ISSUER: 'https://auth.example.com', MCP_PUBLIC_URL: 'https://mcp.example.com/mcp' });
    expect(env.config.secureCookies).toBe(true);
    expect(env.signingKeys).toHaveLength(1);
    expect(parseEnv({ NODE_ENV: 'production', ...(await secrets()), AUTH_ISSUER: 'http://127.0.0.1:4000' }).config.issuer).toBe('http://127.0.0.1:4000');
  });

  test('AUTH_CIMD_ALLOW_LOOPBACK=true is refused in production, naming the variable (development only)', async () => {
    const base = { NODE_ENV: 'production', ...(await secrets()), AUTH_ISSUER: 'https://auth.example.com', MCP_PUBLIC_URL: 'https://mcp.example.com/mcp' };
    expect(problemsOf({ ...base, AUTH_CIMD_ALLOW_LOOPBACK: 'true' })).toContain(
      'AUTH_CIMD_ALLOW_LOOPBACK: development only (lets client metadata documents be fetched from loopback addresses); unset it or set it to false in production',
    );
    expect(parseEnv({ ...base, AUTH_CIMD_ALLOW_LOOPBACK: 'false' }).config.cimd.allowLoopback).toBe(false);
  });

  test('AUTH_CI_DEV_ISSUERS is refused in production, naming the variable (development only)', async () => {
    const base = { NODE_ENV: 'production', ...(await secrets()), AUTH_ISSUER: 'https://auth.example.com', MCP_PUBLIC_URL: 'https://mcp.example.com/mcp' };
    expect(problemsOf({ ...base, AUTH_CI_DEV_ISSUERS: '[{ "issuer": "http://127.0.0.1:4600", "provider": "github" }]' })).toContain(
      'AUTH_CI_DEV_ISSUERS: development only (adds CI issuers whose tokens are exchanged for access tokens); unset it in production',
    );
    expect(parseEnv(base).config.exchange.ciIssuers.map((entry) => entry.issuer)).toEqual(['https://token.actions.githubusercontent.com', 'https://gitlab.com']);
  });

  test('reads the keys from a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'auth-keys-'));
    const file = join(dir, 'jwks.json');
    await writeFile(file, JSON.stringify({ keys: [await generateSigningKey()] }));
    const rest: Record<string, string> = await secrets();
    delete rest.AUTH_SIGNING_KEYS;
    const env = parseEnv({ NODE_ENV: 'production', ...rest, AUTH_SIGNING_KEYS_FILE: file, AUTH_ISSUER: 'https://auth.example.com', MCP_PUBLIC_URL: 'https://mcp.example.com/mcp' });
    expect(env.signingKeys?.[0]?.kid).toEqual(expect.any(String));
    expect(problemsOf({ AUTH_SIGNING_KEYS_FILE: join(dir, 'missing.json') })).toContain('AUTH_SIGNING_KEYS_FILE: cannot read');
  });
});

test('signing keys: private ES256 with a unique kid', async () => {
  const key = await generateSigningKey();
  expect(parseSigningKeys(JSON.stringify({ keys: [key] }))[0]).toMatchObject({ kid: key.kid, alg: 'ES256', use: 'sig' });
  const publicOnly: Record<string, unknown> = { ...key };
  delete publicOnly.d;
  expect(() => parseSigningKeys(JSON.stringify({ keys: [publicOnly] }))).toThrow('must be a private key');
  expect(() => parseSigningKeys(JSON.stringify({ keys: [key, key] }))).toThrow('duplicate kid');
  expect(() => parseSigningKeys(JSON.stringify({ keys: [{ ...key, kid: undefined }] }))).toThrow('needs a "kid"');
  expect(() => parseSigningKeys('nope')).toThrow('JSON Web Key Set');
});

test('local secrets are generated once, kept with mode 0600, and read back unchanged', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'auth-secrets-')), 'auth', 'secrets.json');
  const first = await loadOrCreateLocalSecrets(file);
  const second = await loadOrCreateLocalSecrets(file);
  expect(second).toEqual(first);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect(JSON.parse(await readFile(file, 'utf8')).cookieKeys[0]).toHaveLength(43);
});

describe('the dashboard client (DASHBOARD_CLIENT_ID, DASHBOARD_CLIENT_SECRET, DASHBOARD_URL)', () => {
  const secrets = async () => ({
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [await generateSigningKey()] }),
    AUTH_COOKIE_KEYS: 'k'.repeat(32),
    DATABASE_URL: 'postgresql://db.internal/app',
  });
  test('development: defaults for whatever is not set', () => {
    expect(parseEnv({}).config.dashboard).toEqual({ clientId: 'dashboard', clientSecret: 'development-dashboard-secret-not-for-production-use', url: 'http://localhost:4300' });
    expect(parseEnv({ DASHBOARD_URL: 'http://127.0.0.1:5300' }).config.dashboard?.url).toBe('http://127.0.0.1:5300');
  });

  test('bad values are named', () => {
    const message = problemsOf({ DASHBOARD_CLIENT_ID: 'has space', DASHBOARD_CLIENT_SECRET: 'short', DASHBOARD_URL: 'http://localhost:4300/app' });
    expect(message).toContain('DASHBOARD_CLIENT_ID:');
    expect(message).toContain('DASHBOARD_CLIENT_SECRET: must be at least 32 characters');
  });

  test('a path in DASHBOARD_URL is refused', () => {
    expect(problemsOf({ DASHBOARD_URL: 'http://localhost:4300/app' })).toContain('DASHBOARD_URL: must be an origin without a path');
  });

  test('production: all three or none', async () => {
    const base = { NODE_ENV: 'production', ...(await secrets()), AUTH_ISSUER: 'https://auth.example.com', MCP_PUBLIC_URL: 'https://mcp.example.com/mcp' };
    expect(parseEnv(base).config.dashboard).toBeNull();
    expect(problemsOf({ ...base, DASHBOARD_URL: 'https://dashboard.example.com' })).toContain('DASHBOARD_CLIENT_ID, DASHBOARD_CLIENT_SECRET: set all of');
    const secret = 'a'.repeat(40);
    expect(parseEnv({ ...base, DASHBOARD_CLIENT_ID: 'dash', DASHBOARD_CLIENT_SECRET: secret, DASHBOARD_URL: 'https://dashboard.example.com' }).config.dashboard).toEqual({
      clientId: 'dash',
      clientSecret: secret,
      url: 'https://dashboard.example.com',
    });
    expect(problemsOf({ ...base, DASHBOARD_CLIENT_ID: 'dash', DASHBOARD_CLIENT_SECRET: secret, DASHBOARD_URL: 'http://dashboard.example.com' })).toContain('DASHBOARD_URL: must be an https URL in production');
  });
});

test("docker/.env.example's REPLACE-ME placeholders are refused, each secret named, with what to run", () => {
  const message = problemsOf({
    NODE_ENV: 'production',
    AUTH_ISSUER: 'https://auth.example.com',
    MCP_PUBLIC_URL: 'https://mcp.example.com/mcp',
    // What compose passes from the unedited example file.
    AUTH_SIGNING_KEYS: '{"keys":["REPLACE-ME: node docker/generate-secrets.mjs"]}',
    AUTH_COOKIE_KEYS: 'REPLACE-ME',
    DASHBOARD_CLIENT_SECRET: 'REPLACE-ME',
    DATABASE_URL: 'postgresql://cp:REPLACE-ME-postgres-password@postgres:5432/cp',
    REDIS_URL: 'redis://:REPLACE-ME-redis-password@redis:6379',
  });
  for (const name of ['AUTH_SIGNING_KEYS', 'AUTH_COOKIE_KEYS', 'DASHBOARD_CLIENT_SECRET', 'DATABASE_URL', 'REDIS_URL']) {
    expect(message).toContain(`${name}: still holds the REPLACE-ME placeholder`);
  }
  expect(message).toContain('node docker/generate-secrets.mjs');
});
