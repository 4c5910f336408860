import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ObjectStore, Repositories } from '@cp/domain';
import { createApp } from './app.js';
import type { ChangeFeed } from './changes/change-feed.js';
import type { AppConfig } from './config.js';
import type { Logger } from './log.js';

/** A service listening on a port, as main.ts and the embedded stack see it. */
export interface RunningService {
  readonly name: string;
  readonly url: string;
  close(): Promise<void>;
}

/** Builds the app from ready dependencies and listens. Closing also closes the change feed. */
export async function serveDelivery(options: {
  config: AppConfig;
  host?: string | undefined;
  repos: Repositories;
  objects: ObjectStore;
  changes: ChangeFeed;
  log: Logger;
}): Promise<RunningService> {
  const { config, log } = options;
  const app = createApp(options);
  const server = createServer({ keepAliveTimeout: 65_000 }, app.listener);
  // Slow clients must not pin sockets: bounded header and request times.
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port, publicUrl: config.publicUrl }, 'delivery API listening');
  void options.changes.listening.then(() => log.info('following change notifications'));
  return {
    name: 'Delivery API',
    url: config.publicUrl,
    async close() {
      app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await options.changes.close();
    },
  };
}
