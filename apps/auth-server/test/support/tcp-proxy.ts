import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a server (Redis), on a fixed local port: `stop()` closes
 * it and cuts every connection, as a crashed or unreachable Redis would; `start()`
 * listens again on the same port, as Redis coming back.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  constructor(
    private readonly target: { host: string; port: number },
  ) {}

  /** `redis://` URL through the proxy (the target's credentials, if any, are the caller's). */
  url(base: string): string {
    const url = new URL(base);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.href;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server !== null) await new Promise((resolve) => server.close(resolve));
  }
}
