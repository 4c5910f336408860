import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResponseSpec } from '../cache/cached-response.js';
import { sendProblem, type Problem } from './problem.js';
import { QueryMemo } from './query.js';
import { sendFresh, serveCached, type ServeCachedDeps } from './serve-cached.js';

/** A checked query: the problem that answers it, or what to load and the cache key it is kept under. */
export type CheckedQuery<T> = { readonly problem: Problem } | { readonly problem: null; readonly target: T; readonly key: string };

/** What makes one cached GET endpoint (/consume, /flow): how its query is read and its response loaded. */
export interface CachedEndpoint<T> {
  /** Pure, so that its outcome is kept per distinct query string. */
  readonly validate: (rawQuery: string) => CheckedQuery<T>;
  /** The ids whose changes drop the entry; null when they are known only once loaded (any change during the load counts). */
  readonly watches: (target: T) => readonly string[] | null;
  readonly load: (target: T) => Promise<ResponseSpec>;
  /** Headers on every answer of the endpoint, errors included. */
  readonly errorHeaders?: readonly string[];
  /** Takes over a failed shared load for this request (true: answered); else the usual problem, stale entry or 503. */
  readonly divert?: (error: unknown, target: T, req: IncomingMessage, res: ServerResponse) => boolean;
}

/** A GET endpoint: the query checked (once per distinct string), then the response served from the cache. */
export function createCachedEndpoint<T>(endpoint: CachedEndpoint<T>, deps: ServeCachedDeps) {
  const requests = new QueryMemo(endpoint.validate);
  const errorHeaders = endpoint.errorHeaders ?? [];
  return (req: IncomingMessage, res: ServerResponse, rawQuery: string): void => {
    const request = requests.get(rawQuery);
    if (request.problem) {
      sendProblem(res, request.problem, errorHeaders);
      return;
    }
    // Checked before the miss path's closures are made: a hit allocates nothing.
    if (sendFresh(req, res, request.key, deps)) return;
    const { target } = request;
    const divert = endpoint.divert && ((error: unknown) => endpoint.divert!(error, target, req, res));
    serveCached(req, res, request.key, endpoint.watches(target), () => endpoint.load(target), deps, errorHeaders, divert);
  };
}
