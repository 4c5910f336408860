import type { ServerResponse } from 'node:http';

/** Keeps proxies and browsers from closing a quiet stream, as the delivery API does. */
const HEARTBEAT_MS = 15_000;

export interface EventStreams {
  /** Starts a Server-Sent Events response; `first` writes what a new stream gets at once. */
  open(res: ServerResponse, first?: (send: Send) => void): void;
  /** Sends to every open stream. */
  broadcast(event: string, data: string, id?: string): void;
  readonly size: number;
  closeAll(): void;
}

export type Send = (event: string, data: string, id?: string) => void;

const frame = (event: string, data: string, id?: string): string => `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;

/** A set of open event streams (the SDK's /changes, the dev page's status). */
export function eventStreams(): EventStreams {
  const open = new Set<ServerResponse>();
  return {
    open(res, first) {
      res.writeHead(200, ['Content-Type', 'text/event-stream', 'Cache-Control', 'no-cache, no-transform', 'X-Accel-Buffering', 'no']);
      res.write(': open\n\n');
      first?.((event, data, id) => res.write(frame(event, data, id)));
      open.add(res);
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
      res.on('close', () => {
        clearInterval(heartbeat);
        open.delete(res);
      });
    },
    broadcast(event, data, id) {
      for (const res of open) res.write(frame(event, data, id));
    },
    get size() {
      return open.size;
    },
    closeAll() {
      for (const res of open) res.end();
      open.clear();
    },
  };
}
