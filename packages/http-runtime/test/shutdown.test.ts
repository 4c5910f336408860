import { createServer, request, type Server } from 'node:http';
import { drainable, listen } from '../src/index.js';

const get = (port: number, path: string, agent = false) =>
  new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: agent ? undefined : false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });

const slowServer = (delayMs: number): Server =>
  createServer((req, res) => {
    if (req.url === '/slow') setTimeout(() => res.end('slow done'), delayMs).unref();
    else res.end('fast');
  });

test('a slow in-flight request completes during shutdown, and a new connection is refused', async () => {
  const server = slowServer(500);
  const drain = drainable(server, 5_000);
  const port = await listen(server, 0, '127.0.0.1');

  const inFlight = get(port, '/slow');
  await new Promise((resolve) => setTimeout(resolve, 100)); // the request is being served
  const started = Date.now();
  const drained = drain.drain();
  expect(drain.draining).toBe(true);

  await expect(get(port, '/fast')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  await expect(inFlight).resolves.toMatchObject({ status: 200, body: 'slow done', connection: 'close' });
  await expect(drained).resolves.toEqual({ forced: false });
  expect(Date.now() - started).toBeLessThan(2_000);
});

test('an idle keep-alive connection is not cut: it ends at the keep-alive timeout, and shutdown waits no longer', async () => {
  const server = slowServer(0);
  // Clients close a free connection a second before the server's hint (Keep-Alive: timeout=3).
  server.keepAliveTimeout = 3_000;
  const drain = drainable(server, 5_000);
  const port = await listen(server, 0, '127.0.0.1');
  const agent = new (await import('node:http')).Agent({ keepAlive: true });
  await new Promise<void>((resolve) => request({ host: '127.0.0.1', port, path: '/fast', agent }, (res) => res.resume().on('end', resolve)).end());
  const started = Date.now();
  await expect(drain.drain()).resolves.toEqual({ forced: false });
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
  expect(Date.now() - started).toBeLessThan(4_800);
  agent.destroy();
});

test('a request sent on an idle keep-alive connection during the drain is answered, with Connection: close', async () => {
  const server = slowServer(0);
  const drain = drainable(server, 5_000);
  const port = await listen(server, 0, '127.0.0.1');
  const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
  const viaAgent = () =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/fast', agent }, (res) => {
        res.resume().on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      });
      req.on('error', reject);
      req.end();
    });
  await viaAgent();
  const drained = drain.drain();
  await expect(viaAgent()).resolves.toEqual({ status: 200, connection: 'close' });
  await expect(drained).resolves.toEqual({ forced: false });
  agent.destroy();
});

test('requests still running at the end of the grace period are cut', async () => {
  const server = slowServer(10_000);
  const drain = drainable(server, 300);
  const port = await listen(server, 0, '127.0.0.1');
  const inFlight = get(port, '/slow');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  await expect(drain.drain()).resolves.toEqual({ forced: true });
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(inFlight).rejects.toMatchObject({ code: 'ECONNRESET' });
});
