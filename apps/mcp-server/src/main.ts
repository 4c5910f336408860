/**
 * Runs the MCP server alone, against DATABASE_URL (or PGlite) and the S3_* settings.
 * Migrations are applied by `pnpm db:migrate`, not here: several instances may start at once.
 */
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
});

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await service.close();
  await infrastructure.database.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
