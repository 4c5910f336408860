/**
 * Runs the MCP server alone, against DATABASE_URL (or PGlite) and the S3_* settings.
 * Migrations are applied by `pnpm db:migrate`, not here: several instances may start at once.
 */
import { exitOnSignal } from '@cp/http-runtime';
import { loadEnv } from './env.js';
import { openInfrastructure } from './infrastructure.js';
import { createLogger } from './log.js';
import { serveMcp } from './serve.js';

const env = loadEnv();
const log = createLogger({ level: env.logLevel });

if (env.s3.endpoint === null || env.s3.accessKey === null || env.s3.secretKey === null) {
  process.stderr.write('Invalid configuration:\n  S3_ENDPOINT: required to run the MCP server alone (`pnpm start` runs the embedded stack instead)\n');
  process.exit(78);
}

const infrastructure = await openInfrastructure({
  databaseUrl: env.databaseUrl,
  pgliteDataDir: env.pgliteDataDir,
  s3: {
    endpoint: env.s3.endpoint,
    publicEndpoint: env.s3.publicEndpoint ?? undefined,
    accessKey: env.s3.accessKey,
    secretKey: env.s3.secretKey,
    bucket: env.s3.bucket,
    region: env.s3.region,
  },
  maxUploadBytes: env.maxUploadBytes,
  migrate: false,
});
const service = await serveMcp({
  config: env.app,
  host: env.host,
  domain: infrastructure.domain,
  grants: infrastructure.grants,
  redisUrl: env.redisUrl,
  log,
  graceSeconds: env.shutdownGraceSeconds,
});

// SIGTERM: drain (at most SHUTDOWN_GRACE_SECONDS), then Redis and the database pool.
exitOnSignal({
  log,
  deadlineMs: env.shutdownGraceSeconds * 1000 + 10_000,
  close: async () => {
    await service.close();
    await infrastructure.database.close();
  },
});
