import { Agent, request } from 'node:http';
import { serveHttp, silentLogger } from '../src/index.js';

/*
 * SIGTERM under load, at the level that decides it: serveHttp's drain with keep-alive
 * clients (as a proxy or load balancer holds them) sending requests back to back, some
 * slow, while close() runs. Every request the server accepted must be answered; the only
 * failure allowed is a refused new connection after the listener closed (never accepted,
 * so a client or balancer retries it elsewhere).
 */

type Outcome = { status: number } | { error: string };

const get = (port: number, path: string, agent: Agent) =>
  new Promise<Outcome>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });

test('close() under keep-alive load: every accepted request is answered, nothing is reset', async () => {
  const server = await serveHttp({
    listener: () => (req, res) => {
      // Mixed work: most requests quick, some slow (a cache miss), all in flight at once.
      const delay = req.url === '/slow' ? 400 : Math.floor(Math.random() * 20);
      setTimeout(() => res.end('ok'), delay).unref();
    },
    port: 0,
    host: '127.0.0.1',
    graceSeconds: 5,
    log: silentLogger(),
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const outcomes: Outcome[] = [];
  let stopped = false;
  const client = async (n: number) => {
    for (let i = 0; !stopped; i += 1) {
      const outcome = await get(server.port, i % 10 === n % 10 ? '/slow' : '/fast', agent);
      outcomes.push(outcome);
      if ('error' in outcome && outcome.error === 'ECONNREFUSED') return;
    }
  };
  const clients = Array.from({ length: 16 }, (_, n) => client(n));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const closed = server.close();
  await closed;
  stopped = true;
  await Promise.all(clients);
  agent.destroy();

  const answered = outcomes.filter((outcome) => 'status' in outcome);
  const failures = outcomes.flatMap((outcome) => ('error' in outcome ? [outcome.error] : []));
  expect(answered.length).toBeGreaterThan(50);
  expect(answered.every((outcome) => outcome.status === 200)).toBe(true);
  expect(failures.filter((code) => code !== 'ECONNREFUSED')).toEqual([]);
});
