import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientNetwork, type Tally } from '@cp/http-runtime';
import { ChangesQuery } from '../api/query-schemas.js';
import type { ChangeStreams } from '../changes/change-streams.js';
import { CORS_HEADERS } from './cors.js';
import { HttpErrorCode, problem, sendProblem } from './problem.js';
import { parseQuery } from './query.js';

export interface ChangesEndpointDeps {
  readonly streams: ChangeStreams;
  readonly clientAddress: (req: IncomingMessage) => string;
  readonly draining: () => boolean;
  readonly retryAfterSeconds: number;
  /** Refused streams by reason: `client` (429), `instance` (503), `draining` (503). */
  readonly refusals: Tally;
}

const STREAM_HEADERS: readonly string[] = [
  'Content-Type', 'text/event-stream; charset=utf-8',
  // no-transform: proxies must neither compress nor buffer the stream.
  'Cache-Control', 'no-cache, no-transform',
  // nginx-style proxies buffer responses unless told not to.
  'X-Accel-Buffering', 'no',
  'X-Content-Type-Options', 'nosniff',
  ...CORS_HEADERS,
];

/**
 * GET /changes?ids=…: Server-Sent Events naming the watched ids that changed
 * (README "Live updates"). Validated like every endpoint (400 problems), then
 * admitted against the caps (429 per client, 503 per instance or while
 * draining), then held open until the client leaves or the service drains.
 */
export function createChangesEndpoint(deps: ChangesEndpointDeps) {
  const retryAfter = ['Retry-After', String(deps.retryAfterSeconds)];
  return (req: IncomingMessage, res: ServerResponse, rawQuery: string): void => {
    const query = parseQuery(ChangesQuery, rawQuery, '/changes');
    if (!query.ok) {
      sendProblem(res, query.problem);
      return;
    }
    if (deps.draining()) {
      deps.refusals.inc('draining');
      sendProblem(res, problem(HttpErrorCode.Unavailable, 'This instance is shutting down: open the stream again (another instance will take it).'), retryAfter);
      return;
    }
    if (req.method === 'HEAD') {
      res.writeHead(200, [...STREAM_HEADERS]);
      res.end();
      return;
    }
    const opened = deps.streams.open(res, clientNetwork(deps.clientAddress(req)), query.value.ids);
    if ('refused' in opened) {
      deps.refusals.inc(opened.refused);
      sendProblem(
        res,
        opened.refused === 'client'
          ? problem(HttpErrorCode.TooManyStreams, 'Too many open change streams from this client: close one (a page needs one stream for all its components) or retry later.')
          : problem(HttpErrorCode.Unavailable, 'This instance serves as many change streams as it can: retry later (another instance may take it).'),
        retryAfter,
      );
      return;
    }
    res.once('close', opened.release);
    res.writeHead(200, [...STREAM_HEADERS]);
    const header = req.headers['last-event-id'];
    deps.streams.resume(opened.stream, typeof header === 'string' && header !== '' ? header : query.value.lastEventId);
  };
}
