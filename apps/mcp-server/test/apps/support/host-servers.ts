import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_PROXY_PATH, sandboxProxyResponse } from './sandbox-proxy.js';

/*
 * The two origins of a web host: the host page on http://127.0.0.1:<port> and the sandbox proxy on
 * http://localhost:<other port>, so the view never shares an origin (or a site) with the page that
 * holds the conversation.
 */

export interface HostServers {
  readonly hostOrigin: string;
  readonly proxyOrigin: string;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => handler(req, res, new URL(req.url ?? '/', 'http://in.test')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const send = (res: ServerResponse, status: number, headers: Record<string, string>, body: string): void => {
  res.writeHead(status, headers);
  res.end(body);
};

export async function startHostServers(hostPage: () => Promise<{ html: string; script: string }>): Promise<HostServers> {
  let proxyOrigin = '';
  const host = await listen((_req, res, url) => {
    if (url.pathname === '/') {
      void hostPage().then(({ html }) => send(res, 200, { 'content-type': 'text/html; charset=utf-8' }, html));
    } else if (url.pathname === '/host.js') {
      void hostPage().then(({ script }) => send(res, 200, { 'content-type': 'text/javascript; charset=utf-8' }, script));
    } else if (url.pathname === '/favicon.ico') {
      send(res, 204, {}, '');
    } else {
      send(res, 404, { 'content-type': 'text/plain' }, 'not found');
    }
  });
  const hostOrigin = `http://127.0.0.1:${host.port}`;
  const proxy = await listen((_req, res, url) => {
    if (url.pathname === SANDBOX_PROXY_PATH) {
      const page = sandboxProxyResponse(url.searchParams, hostOrigin);
      send(res, page.status, page.headers, page.body);
    } else if (url.pathname === '/favicon.ico') {
      send(res, 204, {}, '');
    } else {
      send(res, 404, { 'content-type': 'text/plain' }, 'not found');
    }
  });
  proxyOrigin = `http://localhost:${proxy.port}`;
  return {
    hostOrigin,
    proxyOrigin,
    async close() {
      for (const { server } of [host, proxy]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
