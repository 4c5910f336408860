import { exitOnSignal } from '@cp/http-runtime';
import { loadEnv } from './env.js';
import { createLogger } from '@cp/http-runtime';
import { openResources } from './resources.js';
import { serveDelivery } from './serve.js';

const env = loadEnv();
const log = createLogger({ service: 'delivery-api', level: env.logLevel });

try {
  const resources = await openResources(env, log);
  const service = await serveDelivery({ config: env.app, host: env.host, ...resources, log, graceSeconds: env.shutdownGraceSeconds });
  // SIGTERM: drain (at most SHUTDOWN_GRACE_SECONDS), then the change feed, the pool and the object store.
  exitOnSignal({
    log,
    graceSeconds: env.shutdownGraceSeconds,
    close: async () => {
      await service.close();
      await resources.close();
    },
  });
} catch (error) {
  log.fatal({ err: error }, 'cannot start the delivery API');
  process.exit(1);
}
