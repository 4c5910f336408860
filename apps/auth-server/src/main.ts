import { resolve } from 'node:path';
import { createCredentials, createDatabase, createOidcStorage, createRepositories, findRepositoryRoot } from '@cp/db';
import { runService } from '@cp/http-runtime';
import { loadEnv } from './env.js';
import { serveAuth } from './serve.js';

/*
 * The auth server alone: PostgreSQL from DATABASE_URL (required in production),
 * else the embedded PGlite folder. Migrations are not applied here: run
 * `pnpm db:migrate` first (the embedded `pnpm start` does it for the whole stack).
 */

await runService({
  service: 'auth-server',
  name: 'the auth server',
  settings: loadEnv(),
  // SIGTERM: drain (at most SHUTDOWN_GRACE_SECONDS), then the database pool.
  start: async (env, log) => {
    // Relative paths (.data/...) are the repository's, whatever the working directory.
    const root = findRepositoryRoot() ?? process.cwd();
    const database = await createDatabase({ databaseUrl: env.databaseUrl ?? undefined, pgliteDataDir: resolve(root, env.pgliteDataDir) });
    const service = await serveAuth({
      env,
      root,
      domain: { repos: createRepositories(database), ids: { newId: () => crypto.randomUUID() }, clock: { now: () => new Date() } },
      credentials: createCredentials(database.prisma),
      oidc: createOidcStorage(database.prisma),
      log,
    });
    for (const note of [`${service.name}: ${service.url}`, ...(service.notes ?? [])]) log.info(note);
    return [service, database];
  },
});
