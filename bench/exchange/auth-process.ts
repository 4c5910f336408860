/**
 * Child process of run.ts: the auth server as `apps/auth-server/src/main.ts` starts it (parseEnv,
 * createDatabase, serveAuth: createApp behind serveHttp), over a PostgreSQL database of its own
 * (created, migrated, dropped on SIGTERM), seeded through the domain with a user and organization, an
 * API token (createApiToken) and a CI trust policy (createCiPolicy) for the issuer run.ts stands in
 * for, which reaches the server through AUTH_CI_DEV_ISSUERS like any development issuer. Prints one
 * JSON line (ExchangeTarget) when ready. Env from run.ts: BENCH_CI_ISSUER, BENCH_CI_OWNER_ID,
 * BENCH_CI_REPOSITORY_ID.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from '../../apps/auth-server/src/env.js';
import { serveAuth } from '../../apps/auth-server/src/serve.js';
import { createCredentials, createDatabase, createOidcStorage, createRepositories } from '../../packages/db/src/index.js';
import { createApiToken, createCiPolicy, registerUser } from '../../packages/domain/src/index.js';
import { createLogger } from '../../packages/http-runtime/src/log.js';
import { openBenchDatabase } from './database.js';

export interface ExchangeTarget {
  /** The issuer, where the server listens; the token endpoint is `${issuer}/token`. */
  readonly issuer: string;
  /** The API token's secret: handed to wrk only, never printed by run.ts. */
  readonly apiToken: string;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const required = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: run bench/exchange/run.ts`);
  return value;
};

const database = await openBenchDatabase();
// The issuer is the URL the server listens on, and CI tokens' `aud`: known before it starts.
const port = await freePort();
const secrets = await mkdtemp(join(tmpdir(), 'cp-bench-exchange-'));
const env = parseEnv({
  NODE_ENV: 'development',
  AUTH_PORT: String(port),
  AUTH_HOST: '127.0.0.1',
  AUTH_ISSUER: `http://127.0.0.1:${port}`,
  MCP_PUBLIC_URL: 'http://127.0.0.1:4100/mcp',
  AUTH_SECRETS_FILE: join(secrets, 'secrets.json'),
  AUTH_CI_DEV_ISSUERS: JSON.stringify([{ issuer: required('BENCH_CI_ISSUER'), provider: 'github' }]),
  DATABASE_URL: database.url,
});
const db = await createDatabase({ databaseUrl: env.databaseUrl ?? undefined });
const domain = { repos: createRepositories(db), ids: { newId: () => crypto.randomUUID() }, clock: { now: () => new Date() } };

const user = await registerUser({ email: `bench-${Date.now()}@example.com` }, domain);
const actor = { userId: user.id };
const organizationId = user.defaultOrganizationId;
const scope = { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false } as const;
const { secret } = await createApiToken({ actor, organizationId, name: 'bench', scope }, domain);
await createCiPolicy(
  {
    actor,
    organizationId,
    name: 'bench-release',
    provider: 'github',
    ownerId: required('BENCH_CI_OWNER_ID'),
    repositoryId: required('BENCH_CI_REPOSITORY_ID'),
    repositoryName: 'acme/web',
    workflow: '.github/workflows/release.yml',
    environment: 'staging',
    refPatterns: ['refs/heads/main'],
    scope,
  },
  domain,
);

// Request logging at `warn`, as bench/mcp: per-request lines would measure the log sink.
const log = createLogger({ service: 'auth-bench', level: 'warn', destination: process.stderr });
const service = await serveAuth({ env, domain, credentials: createCredentials(db.prisma), oidc: createOidcStorage(db.prisma), log });
const target: ExchangeTarget = { issuer: env.config.issuer, apiToken: secret };
process.stdout.write(`${JSON.stringify(target)}\n`);

process.on('SIGTERM', () => {
  void (async () => {
    await service.close();
    await db.close();
    await database.drop();
    await rm(secrets, { recursive: true, force: true });
    process.exit(0);
  })();
});
