import { createLogger, runService } from '@cp/http-runtime';
import { loadEnv } from './env.js';
import { openResources } from './resources.js';
import { serveDelivery } from './serve.js';

const env = loadEnv();
const log = createLogger({ service: 'delivery-api', level: env.logLevel });

await runService({
  log,
  name: 'the delivery API',
  graceSeconds: env.shutdownGraceSeconds,
  // SIGTERM: drain (at most SHUTDOWN_GRACE_SECONDS), then the change feed, the pool and the object store.
  start: async () => {
    const resources = await openResources(env, log);
    const service = await serveDelivery({ config: env.app, host: env.host, ...resources, log, graceSeconds: env.shutdownGraceSeconds });
    return [service, resources];
  },
});
