import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Graceful shutdown for a node:http server, shared by every service.
 *
 * `drain()`: stop accepting connections, let in-flight requests finish for at
 * most `graceMs`, then close whatever is still open. A keep-alive connection is
 * never cut while idle, since its client may be sending a request on it at that very
 * moment (it would see a reset): its next response says `Connection: close`, and an
 * idle one ends at the server's keep-alive timeout, which clients and proxies expect.
 * Pools (database, Redis, change feed) are closed by the caller afterwards, once no
 * request can use them any more. `listener`: the server's request handler, to be
 * installed here (serveHttp) rather than passed to createServer.
 */
export interface Drainable {
  /** True from the moment draining starts (readiness answers 503 from then on). */
  readonly draining: boolean;
  /** Resolves once the server is closed; `forced` counts connections cut at the deadline. */
  drain(): Promise<{ forced: boolean }>;
}

export function drainable(server: Server, graceMs: number, listener?: RequestListener): Drainable {
  let draining = false;
  let drained: Promise<{ forced: boolean }> | null = null;
  // Responses written while draining ask the client to close the connection. Given the
  // server's listener, this is the only 'request' listener: Node emits to a lone listener
  // without copying the listener array on every request.
  if (listener === undefined) {
    server.prependListener('request', (_req, res) => {
      if (draining) res.shouldKeepAlive = false;
    });
  } else {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (draining) res.shouldKeepAlive = false;
      listener(req, res);
    });
  }
  return {
    get draining() {
      return draining;
    },
    drain() {
      if (drained) return drained;
      draining = true;
      drained = new Promise((resolve) => {
        let forced = false;
        const deadline = setTimeout(() => {
          forced = true;
          server.closeAllConnections();
        }, graceMs);
        // http.Server#close would also cut the idle keep-alive connections at once: stop
        // listening only, and resolve once every connection has ended.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(deadline);
          resolve({ forced });
        });
      });
      return drained;
    },
  };
}

/** Listens and resolves with the bound port (0 picks a free one). */
export async function listen(server: Server, port: number, host: string | undefined): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}

/** What `exitOnSignal` needs of a logger (pino's shape). */
export interface ShutdownLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * main.ts: on SIGTERM or SIGINT run `close` (drain, then pools) and exit 0; exit 1
 * if it throws or does not finish within the grace period (SHUTDOWN_GRACE_SECONDS)
 * plus 10 s for the pools. A second signal exits at once.
 */
export function exitOnSignal(options: { log: ShutdownLog; close: () => Promise<void>; graceSeconds: number }): void {
  const deadlineMs = options.graceSeconds * 1000 + 10_000;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.log.error({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    options.log.info({ signal }, 'shutting down: draining in-flight requests');
    setTimeout(() => {
      options.log.error({ deadlineMs }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, deadlineMs).unref();
    options.close().then(
      () => {
        options.log.info({ signal }, 'shut down');
        process.exit(0);
      },
      (error: unknown) => {
        options.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
