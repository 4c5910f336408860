import { EnvError } from '@cp/http-runtime';
import { parseEnv } from '../src/env.js';

/* src/env.ts: the defaults (`pnpm start` needs no setting), every bad value named, what production requires. */

const KEY_A = 'a'.repeat(32);
const KEY_B = 'b'.repeat(40);
const PRODUCTION = {
  NODE_ENV: 'production',
  DASHBOARD_URL: 'https://dashboard.example.com',
  AUTH_ISSUER: 'https://auth.example.com',
  DASHBOARD_CLIENT_SECRET: 's'.repeat(32),
  DASHBOARD_SESSION_KEYS: `${KEY_A},${KEY_B}`,
  DATABASE_URL: 'postgres://cp@db.example.com/cp',
};

const problemsOf = (env: Record<string, string>): string => {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
  throw new Error('parseEnv accepted the environment');
};

test('no setting: development defaults that match the auth server and the other services', () => {
  const env = parseEnv({});
  expect(env).toEqual({
    app: {
      publicUrl: 'http://localhost:4300',
      issuer: 'http://localhost:4000',
      clientId: 'dashboard',
      clientSecret: 'development-dashboard-secret-not-for-production-use',
      secureCookies: false,
      sessionSeconds: 12 * 3600,
      mcpUrl: 'http://localhost:4100/mcp',
      deliveryUrl: 'http://localhost:4200',
      trustProxy: false,
      componentPageSizes: { variants: 100, releaseEvents: 50 },
      invitationTtlSeconds: 7 * 24 * 3600,
      mail: null,
      staticExport: { prefix: '', publicUrl: null },
      webhooksAllowLoopback: false,
    },
    // No key in the code: each installation draws its own (session-key-file.ts).
    sessionKeys: null,
    secretsFile: '.data/dashboard/secrets.json',
    port: 4300,
    host: undefined,
    logLevel: 'info',
    shutdownGraceSeconds: 10,
    databaseUrl: null,
    pgliteDataDir: '.data/pglite',
    s3: null,
    s3Bucket: 'components',
  });
});

test('empty values count as unset', () => {
  expect(parseEnv({ DASHBOARD_PORT: '', DASHBOARD_URL: '' }).port).toBe(4300);
});

test('every setting read and shaped', () => {
  const env = parseEnv({
    ...PRODUCTION,
    DASHBOARD_PORT: '8080',
    DASHBOARD_HOST: '0.0.0.0',
    DASHBOARD_URL: 'https://dashboard.example.com/',
    DASHBOARD_CLIENT_ID: 'cp.dashboard',
    DASHBOARD_SESSION_HOURS: '8',
    DASHBOARD_TRUST_PROXY: '1',
    AUTH_ISSUER: 'https://auth.example.com/',
    MCP_PUBLIC_URL: 'https://mcp.example.com/mcp',
    DELIVERY_PUBLIC_URL: 'https://cdn.example.com/',
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_SECONDS: '30',
    S3_ENDPOINT: 'https://s3.example.com',
    S3_ACCESS_KEY: 'access',
    S3_SECRET_KEY: 'secret',
    S3_BUCKET: 'bucket',
    S3_REGION: 'eu-west-1',
    EXPORT_PREFIX: 'exports/v1/',
    EXPORT_PUBLIC_URL: 'https://static.example.com/',
  });
  expect(env.app).toEqual({
    publicUrl: 'https://dashboard.example.com',
    issuer: 'https://auth.example.com',
    clientId: 'cp.dashboard',
    clientSecret: 's'.repeat(32),
    secureCookies: true,
    sessionSeconds: 8 * 3600,
    mcpUrl: 'https://mcp.example.com/mcp',
    deliveryUrl: 'https://cdn.example.com',
    trustProxy: 1,
    componentPageSizes: { variants: 100, releaseEvents: 50 },
    invitationTtlSeconds: 7 * 24 * 3600,
    mail: null,
    staticExport: { prefix: 'exports/v1/', publicUrl: 'https://static.example.com' },
    webhooksAllowLoopback: false,
  });
  expect(env.sessionKeys).toEqual([KEY_A, KEY_B]);
  expect(env).toMatchObject({
    port: 8080,
    host: '0.0.0.0',
    logLevel: 'warn',
    shutdownGraceSeconds: 30,
    databaseUrl: 'postgres://cp@db.example.com/cp',
    s3: { endpoint: 'https://s3.example.com', accessKey: 'access', secretKey: 'secret', bucket: 'bucket', region: 'eu-west-1' },
  });
});

test.each([
  ['true', true],
  ['false', false],
  ['2', 2],
  ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
])('DASHBOARD_TRUST_PROXY=%s is passed to Express as %p', (value, expected) => {
  expect(parseEnv({ DASHBOARD_TRUST_PROXY: value }).app.trustProxy).toEqual(expected);
});

test.each([
  ['DASHBOARD_PORT', '70000', 'DASHBOARD_PORT: Too big: expected number to be <=65535'],
  ['DASHBOARD_PORT', 'http', 'DASHBOARD_PORT: Invalid input: expected number, received NaN'],
  ['DASHBOARD_URL', 'ftp://dashboard.example.com', 'DASHBOARD_URL: must be an http(s) URL'],
  ['DASHBOARD_URL', 'http://localhost:4300/dashboard', 'DASHBOARD_URL: must be an origin without a path, e.g. https://dashboard.example.com'],
  ['DASHBOARD_CLIENT_ID', 'my dashboard', 'DASHBOARD_CLIENT_ID: must be 1-64 letters, digits, ".", "_" or "-"'],
  ['DASHBOARD_CLIENT_SECRET', 'short', 'DASHBOARD_CLIENT_SECRET: must be at least 32 characters'],
  ['DASHBOARD_SESSION_KEYS', `${KEY_A},short`, 'DASHBOARD_SESSION_KEYS: must be a comma-separated list of keys of at least 32 characters'],
  ['DASHBOARD_SESSION_KEYS', ' , ', 'DASHBOARD_SESSION_KEYS: must be a comma-separated list of keys of at least 32 characters'],
  ['DASHBOARD_SESSION_HOURS', '0', 'DASHBOARD_SESSION_HOURS: Too small: expected number to be >=1'],
  ['DASHBOARD_SESSION_HOURS', '721', 'DASHBOARD_SESSION_HOURS: Too big: expected number to be <=720'],
  ['AUTH_ISSUER', 'auth.example.com', 'AUTH_ISSUER: must be an http(s) URL'],
  ['MCP_PUBLIC_URL', 'mcp', 'MCP_PUBLIC_URL: must be an http(s) URL'],
  ['DELIVERY_PUBLIC_URL', 'ws://cdn.example.com', 'DELIVERY_PUBLIC_URL: must be an http(s) URL'],
  ['LOG_LEVEL', 'verbose', 'LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"'],
  ['SHUTDOWN_GRACE_SECONDS', '-1', 'SHUTDOWN_GRACE_SECONDS: Too small: expected number to be >=0'],
  ['DATABASE_URL', 'mysql://db/cp', 'DATABASE_URL: must be a postgres:// or postgresql:// URL'],
  ['S3_ENDPOINT', 'https://s3.example.com', 'S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY: set all three, or none (the embedded S3 server)'],
  ['S3_BUCKET', 'ab', 'S3_BUCKET: Too small: expected string to have >=3 characters'],
  ['EXPORT_PREFIX', 'exports', 'EXPORT_PREFIX: empty, or lower-case path segments each ending with "/", e.g. exports/'],
  ['EXPORT_PREFIX', '/exports/', 'EXPORT_PREFIX: empty, or lower-case path segments each ending with "/", e.g. exports/'],
  ['EXPORT_PUBLIC_URL', 'cdn.example.com', 'EXPORT_PUBLIC_URL: must be an http(s) URL'],
])('%s=%p stops the start with a message naming it', (name, value, problem) => {
  expect(problemsOf({ [name]: value })).toBe(`Invalid configuration:\n  ${problem}`);
});

test('production: a complete configuration is accepted, with Secure cookies', () => {
  expect(parseEnv(PRODUCTION).app.secureCookies).toBe(true);
});

test('production: the secret, the session keys and the database are required, and every problem is listed at once', () => {
  expect(problemsOf({ NODE_ENV: 'production', DASHBOARD_URL: 'https://dashboard.example.com', AUTH_ISSUER: 'https://auth.example.com' })).toBe(
    [
      'Invalid configuration:',
      "  DASHBOARD_CLIENT_SECRET: required in production (the same value as the auth server's)",
      '  DASHBOARD_SESSION_KEYS: required in production (comma-separated, >= 32 characters, the first signs)',
      '  DATABASE_URL: required in production',
    ].join('\n'),
  );
});

test('production refuses the development-only WEBHOOKS_ALLOW_LOOPBACK, naming it', () => {
  expect(problemsOf({ ...PRODUCTION, WEBHOOKS_ALLOW_LOOPBACK: 'true' })).toBe(
    ['Invalid configuration:', '  WEBHOOKS_ALLOW_LOOPBACK: development only (loopback webhook receivers); unset it in production'].join('\n'),
  );
  expect(parseEnv({ WEBHOOKS_ALLOW_LOOPBACK: 'true' }).app.webhooksAllowLoopback).toBe(true);
});

test('production: plain http only for loopback addresses', () => {
  expect(problemsOf({ ...PRODUCTION, DASHBOARD_URL: 'http://dashboard.example.com', AUTH_ISSUER: 'http://auth.example.com' })).toBe(
    [
      'Invalid configuration:',
      '  DASHBOARD_URL: must be an https URL in production (loopback addresses excepted)',
      '  AUTH_ISSUER: must be an https URL in production (loopback addresses excepted)',
    ].join('\n'),
  );
  expect(parseEnv({ ...PRODUCTION, DASHBOARD_URL: 'http://localhost:4300', AUTH_ISSUER: 'http://127.0.0.1:4000' }).app.publicUrl).toBe('http://localhost:4300');
});

test("docker/.env.example's REPLACE-ME placeholders are refused, each secret named, with what to run", () => {
  const message = problemsOf({
    ...PRODUCTION,
    // What compose passes from the unedited example file.
    DASHBOARD_CLIENT_SECRET: 'REPLACE-ME',
    DASHBOARD_SESSION_KEYS: 'REPLACE-ME',
    DATABASE_URL: 'postgresql://cp:REPLACE-ME-postgres-password@postgres:5432/cp',
    S3_ENDPOINT: 'http://minio:9000',
    S3_ACCESS_KEY: 'cp-app',
    S3_SECRET_KEY: 'REPLACE-ME-s3-secret-key',
  });
  for (const name of ['DASHBOARD_CLIENT_SECRET', 'DASHBOARD_SESSION_KEYS', 'DATABASE_URL', 'S3_SECRET_KEY']) {
    expect(message).toContain(`${name}: still holds the REPLACE-ME placeholder`);
  }
  expect(message).not.toContain('S3_ACCESS_KEY');
  expect(message).toContain('node docker/generate-secrets.mjs');
});

test('invitations: the link lifetime in hours, and email only with SMTP_URL (MAIL_FROM defaults to the dashboard host)', () => {
  expect(parseEnv({ INVITATION_TTL_HOURS: '48' }).app.invitationTtlSeconds).toBe(48 * 3600);
  expect(parseEnv({ SMTP_URL: 'smtp://user:pw@mail.example.com:587' }).app.mail).toEqual({
    smtpUrl: 'smtp://user:pw@mail.example.com:587',
    from: 'Component dashboard <no-reply@localhost>',
  });
  expect(parseEnv({ SMTP_URL: 'smtps://mail.example.com', MAIL_FROM: 'Team <team@example.com>' }).app.mail?.from).toBe('Team <team@example.com>');
  expect(problemsOf({ SMTP_URL: 'https://mail.example.com' })).toMatch(/SMTP_URL/);
  expect(problemsOf({ INVITATION_TTL_HOURS: '0' })).toMatch(/INVITATION_TTL_HOURS/);
  expect(problemsOf({ MAIL_FROM: 'team@example.com' })).toMatch(/MAIL_FROM: set SMTP_URL too/);
});
