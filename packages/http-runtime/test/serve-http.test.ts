import { request } from 'node:http';
import { serveHttp, silentLogger } from '../src/index.js';

/* src/serve-http.ts: every service's timeouts and graceful drain. */

const get = (port: number, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

test('the listener sees draining turn true on close; in-flight requests finish, new ones are refused', async () => {
  let isDraining = (): boolean => false;
  const server = await serveHttp({
    listener: (draining) => {
      isDraining = draining;
      return (req, res) => {
        if (req.url === '/slow') setTimeout(() => res.end(`draining=${draining()}`), 300).unref();
        else res.end('fast');
      };
    },
    port: 0,
    host: '127.0.0.1',
    graceSeconds: 5,
    log: silentLogger(),
  });
  expect(server.port).toBeGreaterThan(0);
  expect(isDraining()).toBe(false);
  const inFlight = get(server.port, '/slow');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closed = server.close();
  expect(isDraining()).toBe(true);
  await expect(get(server.port, '/fast')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  await expect(inFlight).resolves.toEqual({ status: 200, body: 'draining=true' });
  await closed;
});
