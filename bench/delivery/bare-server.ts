/**
 * Child process: the baseline. A bare node:http server that answers every
 * request with pre-serialized bytes handed over by the parent (the delivery
 * API's own response bodies), with Content-Type and Content-Length only.
 * The body is chosen by path (/small, /large, /large-br). Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const bodies = JSON.parse(process.argv[2] ?? '{}') as Record<string, { file: string; encoding: string | null }>;
const responses = new Map(
  Object.entries(bodies).map(([name, { file, encoding }]) => {
    const body = readFileSync(file);
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) };
    if (encoding) headers['Content-Encoding'] = encoding;
    return [`/${name}`, { body, headers }];
  }),
);

const server = createServer((req, res) => {
  const response = responses.get(req.url ?? '');
  if (!response) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, response.headers);
  res.end(response.body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
// The parent measures CPU per request from these readings.
process.on('message', () => process.send?.(process.cpuUsage()));
process.once('SIGTERM', () => process.exit(0));
