/**
 * Child process: the baseline. A bare node:http server answering each path with
 * the status, headers (same names, order and values) and body bytes that
 * /consume sent for it, recorded by the parent; Node adds Date, Connection and
 * Keep-Alive to both alike. argv[2]: a JSON file of `Recorded` responses by
 * path. Prints one JSON line once listening.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  readonly headers: string[];
  /** Base64 of the body bytes. */
  readonly body: string;
}

const recorded = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, Recorded>;
const responses = new Map(Object.entries(recorded).map(([path, { headers, body }]) => [path, { headers, body: Buffer.from(body, 'base64') }]));

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const response = responses.get(req.url ?? '');
  if (response === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, response.headers);
  res.end(response.body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.once('SIGTERM', () => process.exit(0));
