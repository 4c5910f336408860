import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ObjectStore, Repositories, UsageWriter } from '@cp/domain';
import { createMetrics, createReadiness, type Metrics, type OperabilityDeps, type RouteRecorder, storeChecks } from '@cp/http-runtime';
import { ResponseCache } from './cache/response-cache.js';
import type { ChangeFeed } from './changes/change-feed.js';
import { ChangeStreams } from './changes/change-streams.js';
import type { AppConfig } from './config.js';
import { createVariantLoaders } from '@cp/consume';
import { createColdRoutes } from './http/cold-routes.js';
import { createChangesEndpoint } from './http/changes-endpoint.js';
import { clientAddressOf } from './http/client-address.js';
import { createConsumeEndpoint } from './http/consume-endpoint.js';
import { ALLOWED_METHODS, answerOptions } from './http/cors.js';
import { createFlowEndpoint, deprecationHeaders } from './http/flow-endpoint.js';
import { createHostDemoEndpoint } from './http/host-demo-endpoint.js';
import { createHostSdkEndpoint } from './http/host-sdk-endpoint.js';
import { ANY_HOST_FRAME_PATH, HOST_SDK_MAJOR, type HostSdkFile, hostFramePath, hostSdkPaths } from './host-sdk/host-sdk-file.js';
import { createEventsEndpoint, EVENTS_PATH } from './http/events-endpoint.js';
import { HttpErrorCode, problem, sendProblem } from './http/problem.js';
import type { Logger } from '@cp/http-runtime';
import type { Redis } from '@cp/http-runtime/rate-limit';
import { createUsageIngest, type UsageIngest } from './usage/usage-ingest.js';

/** Everything the app needs, as one typed bag (built by main.ts, or by a test). */
export interface AppDeps extends OperabilityDeps<Metrics> {
  readonly config: AppConfig;
  readonly repos: Repositories;
  readonly objects: ObjectStore;
  readonly changes: ChangeFeed;
  readonly log: Logger;
  /** The built host SDK (host-sdk/host-sdk-file.ts), served at /host/. */
  readonly hostSdk: HostSdkFile;
  /** The frame document of iframe isolation (packages/host dist/frame.html). */
  readonly hostFrame: HostSdkFile;
  /** Where usage events and served counts are written (packages/db createUsageWriter). */
  readonly usage: UsageWriter;
  /** Shared rate-limit counters of POST /v1/events; absent or null: this process's memory. */
  readonly redis?: Redis | null;
}

export interface DeliveryApp {
  /** For `http.createServer`: /consume, /flow and the host SDK, then every other route, on node:http. */
  readonly listener: RequestListener;
  /** Open `GET /changes` streams. */
  readonly streams: ChangeStreams;
  /** Ends every open change stream (at the start of a drain: clients reconnect elsewhere). */
  endStreams(): void;
  /** Stops following change notifications; ends the change streams. */
  close(): void;
  /** Usage events and served counts: `flush()` writes them now, `close()` (after the drain) writes what is left. */
  readonly usage: Pick<UsageIngest, 'flush' | 'close'>;
  readonly metrics: Metrics;
}

export const SERVER_NAME = 'delivery-api';

type Endpoint = (req: IncomingMessage, res: ServerResponse, rawQuery: string) => void;

interface Route {
  readonly serve: Endpoint;
  /** Takes every method but GET and HEAD itself (POST /v1/events); null: the read-only rules (OPTIONS, 405). */
  readonly write: ((req: IncomingMessage, res: ServerResponse) => void) | null;
  readonly headers: readonly string[];
  /** Pre-bound series for GET and HEAD; other methods are rare and looked up. */
  readonly get: RouteRecorder;
  readonly head: RouteRecorder;
  readonly path: string;
}

/**
 * Pure wiring, on node:http alone. The two read endpoints come first: they keep
 * every rule themselves (validation, problem details, CORS, 405); the other
 * routes are in http/cold-routes.ts. No Express in this process: its
 * per-request prototype swaps cost the hot path even on requests it never
 * handles (bench/README.md).
 */
export function createApp(deps: AppDeps): DeliveryApp {
  const { config, log } = deps;
  const metrics = deps.metrics ?? createMetrics({ service: SERVER_NAME });
  const lookups = metrics.tally(
    'delivery_cache_lookups_total',
    'Response cache lookups for /consume and /flow: hit (fresh entry sent), miss (none or not fresh: (re)loaded), stale (a miss whose reload failed, answered from the stale entry).',
    'result',
    ['hit', 'miss', 'stale'],
  );
  const cache = new ResponseCache(config.cache.maxBytes);
  const read = { repos: deps.repos, loaders: createVariantLoaders(deps.objects, Math.floor(config.cache.maxBytes / 4)) };
  const usage = createUsageIngest({ writer: deps.usage, repos: deps.repos, policy: config.usage, metrics, log, redis: deps.redis ?? null });
  const endpointDeps = { cache, config, log, read, lookups, served: usage.served };
  const flowHeaders = deprecationHeaders(config.publicUrl, config.flowSunset);
  const route = (path: string, serve: Endpoint, headers: readonly string[], write: Route['write'] = null): [string, Route] => [
    path,
    { serve, write, headers, path, get: metrics.http.route(path, 'GET'), head: metrics.http.route(path, 'HEAD') },
  ];
  const sdkPaths = hostSdkPaths(deps.hostSdk);
  const draining = deps.draining ?? (() => false);
  const streams = new ChangeStreams(config.changeStreams);
  metrics.gauge('delivery_change_streams', 'Open GET /changes streams (Server-Sent Events) on this instance.', () => streams.size);
  const refusals = metrics.tally(
    'delivery_change_stream_refusals_total',
    'GET /changes streams refused: client (per-client cap, 429), instance (instance cap, 503), draining (shutting down, 503).',
    'reason',
    ['client', 'instance', 'draining'],
  );
  const clientAddress = clientAddressOf(config.trustProxy);
  const changesEndpoint = createChangesEndpoint({
    streams,
    clientAddress,
    draining,
    retryAfterSeconds: config.retryAfterSeconds,
    refusals,
  });
  const eventsEndpoint = createEventsEndpoint({ ingest: usage, clientAddress, retryAfterSeconds: config.retryAfterSeconds, log });
  const endpoints = new Map<string, Route>([
    route('/consume', createConsumeEndpoint(endpointDeps), []),
    route('/flow', createFlowEndpoint(endpointDeps), flowHeaders),
    route(sdkPaths.stable, createHostSdkEndpoint(deps.hostSdk, 'stable'), []),
    route(sdkPaths.immutable, createHostSdkEndpoint(deps.hostSdk, 'immutable'), []),
    route(hostFramePath(deps.hostFrame), createHostSdkEndpoint(deps.hostFrame, 'immutable', 'frame'), []),
    route('/changes', changesEndpoint, []),
    route('/examples/host', createHostDemoEndpoint(config.publicUrl, deps.hostSdk), []),
    route(EVENTS_PATH, eventsEndpoint, [], eventsEndpoint),
  ]);
  // An SDK file pinned before a deploy loads its own build's frame document: the current one speaks the same protocol.
  const [, anyFrame] = route(`/host/frame/${HOST_SDK_MAJOR}.{hash}.html`, createHostSdkEndpoint(deps.hostFrame, 'stable', 'frame'), []);
  const readiness = createReadiness({
    checks: deps.checks ?? storeChecks({ findById: (id) => deps.repos.components.findById(id), objects: deps.objects }),
    draining,
    metrics,
  });

  const unsubscribeStreams = deps.changes.subscribe(streams);
  const invalidate = (id: string) => {
    const marked = cache.invalidate(id);
    if (marked > 0) log.info({ id, entries: marked }, 'invalidated');
  };
  const unsubscribe = deps.changes.subscribe({
    changed: invalidate,
    changedPrivately: invalidate,
    missed() {
      cache.invalidateAll();
      log.info('change notifications (re)connected: every cached response will be reloaded');
    },
  });

  const fallback = createColdRoutes({ config, log, metrics, serverName: SERVER_NAME, ready: (req, res) => readiness.handler(req, res) });

  const listener: RequestListener = (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const endpoint = endpoints.get(path) ?? (ANY_HOST_FRAME_PATH.test(path) ? anyFrame : undefined);
    if (endpoint === undefined) {
      fallback(req, res);
      return;
    }
    const method = req.method;
    const start = performance.now();
    const recorder = method === 'GET' ? endpoint.get : method === 'HEAD' ? endpoint.head : metrics.http.route(endpoint.path, method ?? 'OTHER');
    if (method === 'GET' || method === 'HEAD') {
      endpoint.serve(req, res, q === -1 ? '' : url.slice(q + 1));
    } else if (endpoint.write !== null) {
      endpoint.write(req, res);
    } else if (method === 'OPTIONS') {
      answerOptions(req, res, endpoint.headers);
    } else {
      sendMethodNotAllowed(res, method ?? '', endpoint.headers);
    }
    // A response ended already (a cache hit, a problem) is whole in the socket: recorded now, as a
    // 'finish' listener per request would cost every hit a closure and Node's multi-listener emit.
    // Else timed until it finishes (plain-number series, http-runtime).
    if (res.writableEnded) recorder.record(res.statusCode, (performance.now() - start) / 1000);
    else res.once('finish', () => recorder.record(res.statusCode, (performance.now() - start) / 1000));
  };

  return {
    listener,
    streams,
    endStreams: () => streams.endAll(),
    close() {
      unsubscribe();
      unsubscribeStreams();
      streams.endAll();
    },
    usage,
    metrics,
  };
}

function sendMethodNotAllowed(res: ServerResponse, method: string, headers: readonly string[]): void {
  sendProblem(
    res,
    problem(HttpErrorCode.MethodNotAllowed, `${method} is not allowed here: the delivery API is read-only, use GET.`),
    ['Allow', ALLOWED_METHODS, ...headers],
  );
}
