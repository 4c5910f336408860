import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './self-signed.js';

export type DocumentHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A name the TLS server's certificate also covers; tests resolve it to loopback with their own resolver. */
export const DOCUMENT_HOST_NAME = 'client.example.test';

/**
 * Where test clients publish their metadata documents: a real HTTP server on loopback
 * (or HTTPS, with a self-signed certificate for 127.0.0.1, localhost and
 * `DOCUMENT_HOST_NAME`; the auth server is given `ca` to trust it). Each path answers
 * with its handler; every request is counted per path.
 */
export class DocumentServer {
  private readonly handlers = new Map<string, DocumentHandler>();
  private readonly counts = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly port: number,
    /** The certificate, which is its own CA (https only). */
    readonly ca: Buffer | undefined,
  ) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0]!;
      this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
      const handler = this.handlers.get(path);
      if (handler === undefined)
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such document');
      else handler(req, res);
    });
  }

  static async start(options: { tls?: boolean } = {}): Promise<DocumentServer> {
    const certificate = options.tls
      ? await selfSignedCertificate(
          'localhost',
          `IP:127.0.0.1,DNS:localhost,DNS:${DOCUMENT_HOST_NAME}`,
        )
      : undefined;
    const server = certificate === undefined ? createHttpServer() : createHttpsServer(certificate);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return new DocumentServer(
      server,
      `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
      port,
      certificate?.cert,
    );
  }

  /** `path` answers with `handler`; returns the document's URL on this server. */
  serve(path: string, handler: DocumentHandler): string {
    this.handlers.set(path, handler);
    return `${this.origin}${path}`;
  }

  /** `path` answers 200 with `document` as JSON (and any extra headers). */
  serveJson(
    path: string,
    document: (url: string) => unknown,
    headers: Record<string, string> = {},
  ): string {
    const url = `${this.origin}${path}`;
    return this.serve(path, (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(document(url)));
    });
  }

  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
