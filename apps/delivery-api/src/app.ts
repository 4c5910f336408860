import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ObjectStore, Repositories } from '@cp/domain';
import express, { type NextFunction, type Request, type Response } from 'express';
import { buildOpenApiDocument } from './api/openapi.js';
import { renderReferencePage } from './api/reference-page.js';
import { ResponseCache } from './cache/response-cache.js';
import type { ChangeFeed } from './changes/change-feed.js';
import type { AppConfig } from './config.js';
import { createVariantLoaders } from './delivery/variant-loaders.js';
import { createConsumeEndpoint } from './http/consume-endpoint.js';
import { ALLOWED_METHODS, answerOptions, CORS_HEADERS } from './http/cors.js';
import { createFlowEndpoint, deprecationHeaders } from './http/flow-endpoint.js';
import { HttpErrorCode, problem, sendProblem } from './http/problem.js';
import type { Logger } from './log.js';
import { PACKAGE_VERSION } from './version.js';

/** Everything the app needs, as one typed bag (built by main.ts, or by a test). */
export interface AppDeps {
  readonly config: AppConfig;
  readonly repos: Repositories;
  readonly objects: ObjectStore;
  readonly changes: ChangeFeed;
  readonly log: Logger;
}

export interface DeliveryApp {
  /** For `http.createServer`: /consume and /flow on bare node:http, everything else through Express. */
  readonly listener: RequestListener;
  /** Stops following change notifications. */
  close(): void;
}

export const SERVER_NAME = 'delivery-api';

type Endpoint = (req: IncomingMessage, res: ServerResponse, rawQuery: string) => void;

/**
 * Pure wiring. The two read endpoints bypass Express: on small cached responses
 * Express's per-request work (prototype swaps on req/res, the router's layer
 * walk, closures) costs several times what serving the bytes does (bench/README.md).
 * They keep every rule themselves: validation, problem details, CORS, 405.
 */
export function createApp(deps: AppDeps): DeliveryApp {
  const { config, log } = deps;
  const cache = new ResponseCache(config.cache.maxBytes);
  const read = { repos: deps.repos, loaders: createVariantLoaders(deps.objects, Math.floor(config.cache.maxBytes / 4)) };
  const endpointDeps = { cache, config, log, read };
  const flowHeaders = deprecationHeaders(config.publicUrl, config.flowSunset);
  const endpoints = new Map<string, { serve: Endpoint; headers: readonly string[] }>([
    ['/consume', { serve: createConsumeEndpoint(endpointDeps), headers: [] }],
    ['/flow', { serve: createFlowEndpoint(endpointDeps), headers: flowHeaders }],
  ]);

  const unsubscribe = deps.changes.subscribe({
    changed(id) {
      const marked = cache.invalidate(id);
      if (marked > 0) log.info({ id, entries: marked }, 'invalidated');
    },
    missed() {
      cache.invalidateAll();
      log.info('change notifications (re)connected: every cached response will be reloaded');
    },
  });

  const fallback = createExpressApp(config, log);

  const listener: RequestListener = (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const endpoint = endpoints.get(q === -1 ? url : url.slice(0, q));
    if (endpoint === undefined) {
      fallback(req, res);
      return;
    }
    const method = req.method;
    if (method === 'GET' || method === 'HEAD') {
      endpoint.serve(req, res, q === -1 ? '' : url.slice(q + 1));
    } else if (method === 'OPTIONS') {
      answerOptions(req, res, endpoint.headers);
    } else {
      sendMethodNotAllowed(res, method ?? '', endpoint.headers);
    }
  };

  return { listener, close: unsubscribe };
}

function sendMethodNotAllowed(res: ServerResponse, method: string, headers: readonly string[]): void {
  sendProblem(
    res,
    problem(HttpErrorCode.MethodNotAllowed, `${method} is not allowed here: the delivery API is read-only, use GET.`),
    ['Allow', ALLOWED_METHODS, ...headers],
  );
}

/** The cold routes: health, the OpenAPI document and its rendered page, and the 404/405/500 fallbacks. */
function createExpressApp(config: AppConfig, log: Logger): express.Express {
  const document = buildOpenApiDocument(config, PACKAGE_VERSION);
  const openApiJson = JSON.stringify(document);
  const referenceHtml = renderReferencePage(document as unknown as Record<string, unknown>);
  const health = JSON.stringify({ status: 'ok', version: PACKAGE_VERSION, server: SERVER_NAME });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((_req, res, next) => {
    for (let i = 0; i < CORS_HEADERS.length; i += 2) res.setHeader(CORS_HEADERS[i]!, CORS_HEADERS[i + 1]!);
    next();
  });

  app.get('/', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/json').send(health);
  });
  app.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(openApiJson);
  });
  app.get('/docs', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.type('text/html').send(referenceHtml);
  });
  app.options(['/', '/openapi.json', '/docs'], (req, res) => answerOptions(req, res));
  app.all(['/', '/openapi.json', '/docs'], (req, res) => sendMethodNotAllowed(res, req.method, []));

  app.use((req, res) => {
    sendProblem(
      res,
      problem(HttpErrorCode.RouteNotFound, `Nothing at ${req.path.slice(0, 100)}. Components are served at ${config.publicUrl}/consume?id=<component id>; see ${config.publicUrl}/docs.`),
    );
  });

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    log.error({ err: error }, 'request failed');
    sendProblem(res, problem(HttpErrorCode.Internal, 'Internal error.'));
  });
  return app;
}
