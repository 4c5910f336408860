/**
 * Child process: a baseline. Answers every request with pre-serialized bytes
 * handed over by the parent (the delivery API's own response bodies), with
 * Content-Type and Content-Length only; the body is chosen by path (/small,
 * /large, /large-br). Mode `bare` (argv[3], default): a bare node:http handler.
 * Mode `express`: the same through a minimal Express 5 app (one route, etag
 * and x-powered-by off), to measure what Express itself costs. Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importExpress } from './resolve.js';

const bodies = JSON.parse(process.argv[2] ?? '{}') as Record<string, { file: string; encoding: string | null }>;
const mode = process.argv[3] ?? 'bare';
const responses = new Map(
  Object.entries(bodies).map(([name, { file, encoding }]) => {
    const body = readFileSync(file);
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) };
    if (encoding) headers['Content-Encoding'] = encoding;
    return [`/${name}`, { body, headers }];
  }),
);

let listener: RequestListener;
if (mode === 'express') {
  const express = await importExpress();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/:name', (req, res) => {
    const response = responses.get(req.path);
    if (!response) {
      res.status(404).end();
      return;
    }
    res.writeHead(200, response.headers);
    res.end(response.body);
  });
  listener = app;
} else {
  listener = (req, res) => {
    const response = responses.get(req.url ?? '');
    if (!response) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, response.headers);
    res.end(response.body);
  };
}

const server = createServer(listener);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
// The parent measures CPU per request from these readings.
process.on('message', () => process.send?.(process.cpuUsage()));
process.once('SIGTERM', () => process.exit(0));
