import { resolve } from 'node:path';
import * as auth from '@cp/auth-server';
import * as dashboard from '@cp/dashboard';
import { createCredentials, createJobBoss, createOidcStorage, createRolloutFigures, createUsageMaintenance, createUsageReader, createUsageWriter, createWebhookDeliveryStore } from '@cp/db';
import { createLogger } from '@cp/http-runtime';
import * as delivery from '@cp/delivery-api';
import * as mcp from '@cp/mcp-server';
import * as worker from '@cp/worker';
import { openEmbeddedInfrastructure } from './embedded-infrastructure.js';
import { withStackHost } from './stack-host.js';

type Source = Readonly<Record<string, string | undefined>>;

export interface RunningStack {
  readonly services: readonly { name: string; url: string }[];
  readonly s3Endpoint: string;
  close(): Promise<void>;
}

/**
 * The whole product in one process on embedded defaults, each service on its own
 * port and wired exactly as it is in production: the MCP server verifies tokens
 * from the auth server's JWKS, delivery invalidates its cache on the database's
 * notifications. Each service reads its own settings from `source` (process.env).
 */
export async function startStack(options: {
  /** process.env: each service's settings, and STACK_HOST (the interface every service listens on). */
  source: Source;
  /** Relative paths in the settings (PGLITE_DATA_DIR, AUTH_SECRETS_FILE, DASHBOARD_SECRETS_FILE) and `.data/s3` resolve here. */
  root: string;
  s3Port: number;
}): Promise<RunningStack> {
  const stackHost = withStackHost(options.source);
  const { host } = stackHost;
  // Development: webhook receivers on this machine (http://127.0.0.1:...) are allowed unless switched off.
  const source = { ...stackHost.source, WEBHOOKS_ALLOW_LOOPBACK: stackHost.source.WEBHOOKS_ALLOW_LOOPBACK || 'true' };
  const mcpEnv = mcp.parseEnv(source);
  const authEnv = auth.parseEnv(source);
  const deliveryEnv = delivery.parseEnv(source);
  const dashboardEnv = dashboard.parseEnv(source);
  const workerEnv = worker.parseEnv(source);
  const infrastructure = await openEmbeddedInfrastructure({
    pgliteDir: resolve(options.root, mcpEnv.pgliteDataDir),
    s3Dir: resolve(options.root, '.data/s3'),
    s3Port: options.s3Port,
    host,
    maxUploadBytes: mcpEnv.maxUploadBytes,
  });
  // The MCP server's tool and the dashboard's pages read the same rollups.
  const usageReader = createUsageReader(infrastructure.database.sql);
  // The MCP server's get_rollout and the worker's rollout guard count the same sessions.
  const rolloutFigures = createRolloutFigures(infrastructure.database.sql);
  const running: { name: string; url: string; close(): Promise<void> }[] = [];
  const close = async () => {
    for (const service of running.reverse()) await service.close().catch(() => undefined);
    await infrastructure.close();
  };
  try {
    const { prisma } = infrastructure.database;
    running.push(
      await auth.serveAuth({
        env: authEnv,
        root: options.root,
        domain: infrastructure.domain,
        credentials: createCredentials(prisma),
        oidc: createOidcStorage(prisma),
        log: createLogger({ service: 'auth-server', level: authEnv.logLevel }),
      }),
    );
    running.push(
      await mcp.serveMcp({
        config: mcpEnv.app,
        host: mcpEnv.host,
        domain: infrastructure.domain,
        usage: usageReader,
        figures: rolloutFigures,
        grants: infrastructure.grants,
        redisUrl: mcpEnv.redisUrl,
        log: createLogger({ service: 'mcp-server', level: mcpEnv.logLevel }),
      }),
    );
    running.push(
      await delivery.serveDelivery({
        config: deliveryEnv.app,
        host: deliveryEnv.host,
        repos: infrastructure.domain.repos,
        objects: infrastructure.domain.objects,
        changes: await delivery.createPGliteChangeFeed(infrastructure.pglite),
        usage: createUsageWriter(infrastructure.database.sql),
        redisUrl: deliveryEnv.redisUrl,
        log: createLogger({ service: 'delivery-api', level: deliveryEnv.logLevel }),
      }),
    );
    running.push(
      await dashboard.serveDashboard({
        config: { ...dashboardEnv.app, sessionKeys: await dashboard.sessionKeysFor(dashboardEnv, options.root) },
        port: dashboardEnv.port,
        host: dashboardEnv.host,
        domain: infrastructure.domain,
        grants: createOidcStorage(prisma),
        usage: usageReader,
        rolloutFigures: createRolloutFigures(infrastructure.database.sql),
        log: createLogger({ service: 'dashboard', level: dashboardEnv.logLevel }),
      }),
    );
    // The job queue's worker (webhook deliveries...) on the same PGlite: pg-boss over its connection.
    const workerLog = createLogger({ service: 'worker', level: workerEnv.logLevel });
    const staticExport = await worker.openStaticExport({
      s3: infrastructure.s3Config,
      exportBucket: workerEnv.staticExport.bucket,
      prefix: workerEnv.staticExport.prefix,
      cacheBytes: workerEnv.staticExport.cacheBytes,
      repos: infrastructure.domain.repos,
    });
    running.push(
      await worker.serveWorker({
        boss: createJobBoss(infrastructure.database.jobsDb, { schedule: true }),
        jobs: worker.createJobRegistry({
          log: workerLog,
          staticExport,
          webhooks: {
            deliveries: createWebhookDeliveryStore(prisma),
            outbound: { allowLoopback: workerEnv.webhooksAllowLoopback },
            clock: { now: () => new Date() },
          },
          usage: { maintenance: createUsageMaintenance(infrastructure.database.sql), clock: { now: () => new Date() }, retention: workerEnv.usageRetention },
          rollouts: { repos: infrastructure.domain.repos, ids: infrastructure.domain.ids, clock: infrastructure.domain.clock, figures: rolloutFigures },
        }),
        log: workerLog,
        port: workerEnv.port,
        host: workerEnv.host,
        pollingIntervalSeconds: workerEnv.pollingIntervalSeconds,
        checks: { database: () => infrastructure.database.sql.rows({ text: 'SELECT 1', values: [] }) },
      }),
    );
  } catch (error) {
    await close();
    throw error;
  }
  return {
    services: running.map(({ name, url }) => ({ name, url })),
    s3Endpoint: infrastructure.s3Endpoint,
    close,
  };
}
