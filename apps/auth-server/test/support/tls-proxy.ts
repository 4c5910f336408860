import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './self-signed.js';

/**
 * A TLS-terminating reverse proxy on loopback, as production's proxy: HTTPS in front,
 * plain HTTP to `upstream` with X-Forwarded-Proto/-For. Its certificate is self-signed
 * for 127.0.0.1, made by the `openssl` command at start (browsers are told to accept it).
 */
export class TlsProxy {
  private server: Server | null = null;
  private upstream: URL | null = null;

  /** Listens now (so its URL can be the issuer); forwards once `forwardTo` names the upstream. */
  async start(): Promise<string> {
    const { key, cert } = await selfSignedCertificate('127.0.0.1', 'IP:127.0.0.1');
    this.server = createServer({ key, cert }, (req, res) => {
      const target = this.upstream;
      if (target === null) return void res.writeHead(502).end('no upstream yet');
      const forwarded = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: {
            ...req.headers,
            'x-forwarded-proto': 'https',
            'x-forwarded-for': req.socket.remoteAddress ?? '',
          },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.writeHead(502).end());
      req.pipe(forwarded);
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  forwardTo(upstream: string): void {
    this.upstream = new URL(upstream);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
