import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps } from './app.js';

/** A service listening on a port, as main.ts and the embedded stack see it. */
export interface RunningService {
  readonly name: string;
  readonly url: string;
  close(): Promise<void>;
}

export async function serveDashboard(options: AppDeps & { port: number; host?: string | undefined }): Promise<RunningService> {
  const server = createServer(createApp(options));
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => done());
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info({ port, url: options.config.publicUrl, issuer: options.config.issuer }, 'dashboard listening');
  return {
    name: 'Dashboard',
    url: options.config.publicUrl,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
