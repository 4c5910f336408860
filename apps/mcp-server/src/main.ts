/**
 * Runs the MCP server alone, against DATABASE_URL (or PGlite) and the S3_* settings.
 * Migrations are applied by `pnpm db:migrate`, not here: several instances may start at once.
 */
import { runService } from '@cp/http-runtime';
import { loadEnv } from './env.js';
import { openInfrastructure } from './infrastructure.js';
import { serveMcp } from './serve.js';

await runService({
  service: 'mcp-server',
  name: 'the MCP server',
  settings: loadEnv(),
  // SIGTERM: drain (at most SHUTDOWN_GRACE_SECONDS), then Redis and the database pool.
  start: async (env, log) => {
    const infrastructure = await openInfrastructure({
      databaseUrl: env.databaseUrl,
      pgliteDataDir: env.pgliteDataDir,
      s3: env.standaloneS3,
      maxUploadBytes: env.maxUploadBytes,
      migrate: false,
    });
    const service = await serveMcp({
      config: env.app,
      host: env.host,
      domain: infrastructure.domain,
      usage: infrastructure.usage,
      figures: infrastructure.figures,
      grants: infrastructure.grants,
      redisUrl: env.redisUrl,
      log,
      graceSeconds: env.shutdownGraceSeconds,
    });
    return [service, infrastructure.database];
  },
});
