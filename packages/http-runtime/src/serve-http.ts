import { createServer, type RequestListener } from 'node:http';
import type { Logger } from './log.js';
import { drainable, listen } from './shutdown.js';

/** A service listening on a port, as main.ts and the embedded stack see it. */
export interface RunningService<M> {
  readonly name: string;
  readonly url: string;
  /** The bound port (useful with port 0). */
  readonly port: number;
  readonly metrics: M;
  /** Lines worth printing at start (where to sign up, ...). */
  readonly notes?: readonly string[];
  /** Graceful: stop accepting, let in-flight requests finish (grace period), then the service's own pools. */
  close(): Promise<void>;
}

export interface ServeHttpOptions {
  /** Builds the request handler; `draining()` turns true once shutdown began (`/ready` answers 503). */
  readonly listener: (draining: () => boolean) => RequestListener;
  readonly port: number;
  readonly host: string | undefined;
  /** SHUTDOWN_GRACE_SECONDS: how long in-flight requests may run after `close()` (default 10). */
  readonly graceSeconds?: number;
  readonly log: Logger;
  /** Longest a whole request may take (default 60 s). */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open (default: Node's 5 s). */
  readonly keepAliveTimeoutMs?: number;
}

export interface HttpServer {
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish for the grace period, then cuts what is left. */
  close(): Promise<void>;
}

/** Listens with every service's timeouts and graceful drain (shutdown.ts). */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpServer> {
  let draining = () => false;
  const listener = options.listener(() => draining());
  const server = createServer({ keepAliveTimeout: options.keepAliveTimeoutMs });
  // Slow clients must not pin sockets: bounded header and request times.
  server.headersTimeout = 15_000;
  server.requestTimeout = options.requestTimeoutMs ?? 60_000;
  const drain = drainable(server, (options.graceSeconds ?? 10) * 1000, listener);
  draining = () => drain.draining;
  const port = await listen(server, options.port, options.host);
  return {
    port,
    async close() {
      const { forced } = await drain.drain();
      if (forced) options.log.warn('grace period over: open connections were closed');
    },
  };
}
