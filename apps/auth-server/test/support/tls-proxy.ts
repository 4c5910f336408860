import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

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
    const dir = await mkdtemp(join(tmpdir(), 'tls-proxy-'));
    try {
      await promisify(execFile)('openssl', [
        ...[
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-days',
          '1',
        ],
        ...[
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
      ]);
      const [key, cert] = await Promise.all([
        readFile(join(dir, 'key.pem')),
        readFile(join(dir, 'cert.pem')),
      ]);
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
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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
