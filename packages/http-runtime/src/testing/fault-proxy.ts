import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy that a test puts between a service and one of its dependencies
 * (PostgreSQL, the object store, Redis) to cut it the ways networks and servers fail:
 *
 * - `refuse()`: the port stops listening (new connections get ECONNREFUSED) and every
 *   established connection is closed, as when the server process is down.
 * - `hang()`: connections stay open but nothing crosses them, established or new (new
 *   ones complete the TCP handshake and wait), as in a partition or a stalled server.
 *   Bytes sent meanwhile go nowhere.
 * - `reset()`: destroys the connections open now (a failover: the old server is gone).
 * - `restore()`: listening and forwarding again. The connections a hang held are closed:
 *   by then their owners have given up on them (a deadline, a heartbeat), as a server
 *   answers a stale connection's next packet after a partition, so they must reconnect.
 */
// Connections are ended with destroy(), not resetAndDestroy(): a reset of a paused socket
// can leave a pending request that keeps Node's exit spinning in its handle cleanup.
export interface FaultProxy {
  readonly port: number;
  readonly mode: FaultMode;
  /** Connections accepted since the proxy started, for tests that check reconnection. */
  readonly accepted: number;
  refuse(): Promise<void>;
  hang(): void;
  reset(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export type FaultMode = 'pass' | 'hang' | 'refuse';

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

export async function startFaultProxy(target: { host: string; port: number }, listenPort = 0): Promise<FaultProxy> {
  const pairs = new Set<Pair>();
  let mode: FaultMode = 'pass';
  let accepted = 0;
  let server: Server;

  const destroy = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => mode === 'pass' && from.resume());
      }
    });
    from.on('end', () => to.end());
  };

  const open = (pair: Pair) => {
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => destroy(pair));
    upstream.on('close', () => pairs.has(pair) && destroy(pair));
    forward(pair.client, upstream);
    forward(upstream, pair.client);
    pair.client.resume();
  };

  const accept = (client: Socket) => {
    accepted += 1;
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    client.pause();
    client.on('error', () => destroy(pair));
    client.on('close', () => pairs.has(pair) && destroy(pair));
    if (mode === 'pass') open(pair);
  };

  const listen = (port: number) =>
    new Promise<Server>((done, fail) => {
      const next = createServer(accept);
      next.once('error', fail);
      next.listen(port, '127.0.0.1', () => done(next));
    });

  server = await listen(listenPort);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : listenPort;

  return {
    port,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    async refuse() {
      mode = 'refuse';
      const closed = new Promise<void>((done) => server.close(() => done()));
      for (const pair of [...pairs]) destroy(pair);
      await closed;
    },
    hang() {
      mode = 'hang';
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream?.pause();
      }
    },
    reset() {
      for (const pair of [...pairs]) destroy(pair);
    },
    async restore() {
      if (mode === 'refuse') server = await listen(port);
      mode = 'pass';
      for (const pair of [...pairs]) destroy(pair);
    },
    async close() {
      mode = 'refuse';
      for (const pair of [...pairs]) destroy(pair);
      await new Promise<void>((done) => (server.listening ? server.close(() => done()) : done()));
    },
  };
}
