import { loadEnv } from './env.js';
import { createLogger } from './log.js';
import { openResources } from './resources.js';
import { serveDelivery } from './serve.js';

const env = loadEnv();
const log = createLogger({ level: env.logLevel });

try {
  const resources = await openResources(env, log);
  const service = await serveDelivery({ config: env.app, host: env.host, ...resources, log });
  const stop = (signal: string) => {
    log.info({ signal }, 'shutting down');
    void service
      .close()
      .then(() => resources.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (error) {
  log.fatal({ err: error }, 'cannot start the delivery API');
  process.exit(1);
}
