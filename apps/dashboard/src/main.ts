import { join, resolve } from 'node:path';
import { createDatabase, createOidcStorage, createRepositories, createRolloutFigures, createUsageReader, findRepositoryRoot } from '@cp/db';
import { defaultDomainConfig } from '@cp/domain';
import { createObjectStore, startEmbeddedS3 } from '@cp/storage';
import { loadEnv } from './env.js';
import { runService } from '@cp/http-runtime';
import { serveDashboard } from './serve.js';
import { sessionKeysFor } from './session-key-file.js';

/*
 * The dashboard alone: PostgreSQL from DATABASE_URL (else the embedded PGlite
 * folder, which only one process may open: use `pnpm start` for the whole stack),
 * S3 from S3_* (else the embedded S3 server on .data/s3). Migrations are applied
 * by `pnpm db:migrate`, not here.
 */
const root = findRepositoryRoot() ?? process.cwd();

await runService({
  service: 'dashboard',
  name: 'the dashboard',
  settings: loadEnv(),
  // SIGTERM: drain (at most SHUTDOWN_GRACE_SECONDS), then the object store and the database pool.
  start: async (env, log) => {
    const database = await createDatabase({ databaseUrl: env.databaseUrl ?? undefined, pgliteDataDir: resolve(root, env.pgliteDataDir) });
    const embedded = env.s3 === null ? await startEmbeddedS3({ directory: join(root, '.data', 's3'), bucket: env.s3Bucket }) : null;
    const objects = createObjectStore(env.s3 ?? embedded!.config);
    const service = await serveDashboard({
      config: { ...env.app, sessionKeys: await sessionKeysFor(env, root) },
      port: env.port,
      host: env.host,
      domain: { repos: createRepositories(database), objects, ids: { newId: () => crypto.randomUUID() }, clock: { now: () => new Date() }, config: defaultDomainConfig },
      grants: createOidcStorage(database.prisma),
      usage: createUsageReader(database.sql),
      rolloutFigures: createRolloutFigures(database.sql),
      log,
      graceSeconds: env.shutdownGraceSeconds,
    });
    log.info(`${service.name}: ${service.url}`);
    return [service, ...(embedded === null ? [] : [embedded]), database];
  },
});
