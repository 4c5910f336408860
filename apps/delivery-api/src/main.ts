import { runService } from '@cp/http-runtime';
import { loadEnv } from './env.js';
import { openResources } from './resources.js';
import { serveDelivery } from './serve.js';

await runService({
  service: 'delivery-api',
  name: 'the delivery API',
  settings: loadEnv(),
  // SIGTERM: drain (at most SHUTDOWN_GRACE_SECONDS), write the buffered usage, then the change feed, the pool and the object store.
  start: async (env, log) => {
    const resources = await openResources(env, log);
    const service = await serveDelivery({
      config: env.app,
      host: env.host,
      ...resources,
      redisUrl: env.redisUrl,
      log,
      graceSeconds: env.shutdownGraceSeconds,
    });
    return [service, resources];
  },
});
