import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for GitHub Actions' ID-token service (ACTIONS_ID_TOKEN_REQUEST_URL): it records each request. */
export interface ActionsTokenService {
  /** As GitHub sets it: a URL that already has a query. */
  readonly requestUrl: string;
  readonly requests: { url: URL; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startActionsTokenService(idToken: string): Promise<ActionsTokenService> {
  const requests: ActionsTokenService['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ url: new URL(req.url ?? '/', 'http://localhost'), headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ count: 1, value: idToken }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requestUrl: `http://127.0.0.1:${port}/_apis/token?api-version=2.0`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
