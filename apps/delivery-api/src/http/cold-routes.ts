import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from '@cp/http-runtime';
import { buildOpenApiDocument } from '../api/openapi.js';
import { renderReferencePage } from '../api/reference-page.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '@cp/http-runtime';
import { PACKAGE_VERSION } from '../version.js';
import { ALLOWED_METHODS, answerOptions, CORS_HEADERS } from './cors.js';
import { HttpErrorCode, problem, sendProblem } from './problem.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A fixed body with its headers, sent as Express's `res.type(…).send(string)` sent it (HEAD: headers only). */
function fixed(contentType: string, body: string, headers: readonly string[]): Handler {
  const bytes = Buffer.from(body);
  const all = [...CORS_HEADERS, ...headers, 'Content-Type', `${contentType}; charset=utf-8`, 'Content-Length', String(bytes.length)];
  return (req, res) => {
    res.writeHead(200, all);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
}

/**
 * Every route but /consume and /flow: health, readiness, metrics, the OpenAPI
 * document and its page, and the 404/405/500 fallbacks, on plain node:http.
 * Not Express: Express swaps the prototypes of req and res on each request it
 * handles, and once a process has seen such objects (a readiness probe, a
 * scrape), Node's own HTTP code reads every later request's objects through
 * megamorphic property lookups, the hot path's included (bench/README.md).
 * Paths match as Express matched them: case-insensitively, one trailing slash allowed.
 */
export function createColdRoutes(options: { config: AppConfig; log: Logger; metrics: Metrics; ready: Handler; serverName: string }): Handler {
  const { config, log, metrics } = options;
  const document = buildOpenApiDocument(config, PACKAGE_VERSION);
  const health = JSON.stringify({ status: 'ok', version: PACKAGE_VERSION, server: options.serverName });
  // Operators' endpoints: not public (docker/Caddyfile answers 404 for them), no CORS.
  const operations = new Map<string, Handler>([
    ['/ready', options.ready],
    ['/metrics', (req, res) => metrics.handler(req, res)],
  ]);
  const pages = new Map<string, Handler>([
    ['/', fixed('application/json', health, ['Cache-Control', 'no-store'])],
    ['/openapi.json', fixed('application/json', JSON.stringify(document), ['Cache-Control', 'public, max-age=300'])],
    [
      '/docs',
      fixed('text/html', renderReferencePage(document as unknown as Record<string, unknown>), [
        'Cache-Control', 'public, max-age=300',
        'Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'",
      ]),
    ],
  ]);

  const answer = (req: IncomingMessage, res: ServerResponse, path: string): string => {
    const route = routeOf(path);
    const method = req.method ?? '';
    const isRead = method === 'GET' || method === 'HEAD';
    const operation = operations.get(route);
    if (operation && isRead) {
      operation(req, res);
      return route;
    }
    const page = pages.get(route);
    if (page === undefined) {
      sendProblem(
        res,
        problem(HttpErrorCode.RouteNotFound, `Nothing at ${path.slice(0, 100)}. Components are served at ${config.publicUrl}/consume?id=<component id>; see ${config.publicUrl}/docs.`),
      );
      return '(unmatched)';
    }
    if (isRead) page(req, res);
    else if (method === 'OPTIONS') answerOptions(req, res);
    else {
      sendProblem(res, problem(HttpErrorCode.MethodNotAllowed, `${method} is not allowed here: the delivery API is read-only, use GET.`), ['Allow', ALLOWED_METHODS]);
    }
    return route;
  };

  return (req, res) => {
    const start = performance.now();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    let route = '(unmatched)';
    res.once('finish', () => metrics.http.observe(route, req.method ?? 'OTHER', res.statusCode, (performance.now() - start) / 1000));
    try {
      route = answer(req, res, q === -1 ? url : url.slice(0, q));
    } catch (error) {
      log.error({ err: error }, 'request failed');
      if (res.headersSent) res.end();
      else sendProblem(res, problem(HttpErrorCode.Internal, 'Internal error.'));
    }
  };
}

/** The route a path names, as Express's default (non-strict, case-insensitive) matching read it. */
function routeOf(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}
