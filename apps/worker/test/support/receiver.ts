import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A webhook receiver in the test process: records every POST and answers with the next status of
 * `script` (then `fallback`), so a test can make it fail twice and then succeed.
 */
export async function startReceiver() {
  const received: Received[] = [];
  let script: number[] = [];
  let fallback = 204;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(script.shift() ?? fallback, { 'content-type': 'text/plain' });
      res.end('ok from receiver');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** The next answers, in order; afterwards `then`. */
    answer(statuses: number[], then = 204) {
      script = [...statuses];
      fallback = then;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export const until = async (
  done: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
