import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDomainError } from '@cp/domain';
import { buildCachedResponse, type CachedResponse, type Encodings, type ResponseSpec } from '../cache/cached-response.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '@cp/http-runtime';
import { chooseRepresentation, matchesIfNoneMatch } from './content-negotiation.js';
import { HttpErrorCode, problem, problemFromDomain, sendProblem } from './problem.js';

class LoadTimeoutError extends Error {
  override readonly name = 'LoadTimeoutError';
}

/** Not loaded: a load failed for a dependency a moment ago. */
class DependencyFailingError extends Error {
  override readonly name = 'DependencyFailingError';
}

export const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LoadTimeoutError(`load took longer than ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

/** Sends a cached response: the negotiated encoding, or 304 when the client's ETag matches; either counts as served. */
export function sendCached(req: IncomingMessage, res: ServerResponse, entry: Encodings): void {
  entry.served?.count();
  const representation = chooseRepresentation(entry, req.headers['accept-encoding']);
  if (matchesIfNoneMatch(req.headers['if-none-match'], representation.etag)) {
    res.writeHead(304, representation.notModifiedHeaders as string[]);
    res.end();
    return;
  }
  // Node sends no body for HEAD, keeping the headers (Content-Length included).
  res.writeHead(200, representation.headers as string[]);
  res.end(representation.body);
}

export interface ServeCachedDeps {
  readonly cache: ResponseCache;
  /** Counts hit / miss / stale (http-runtime's Tally: plain numbers, formatted when scraped). */
  readonly lookups?: { inc(result: 'hit' | 'miss' | 'stale'): void };
  readonly config: AppConfig;
  readonly log: Logger;
}

/**
 * The hot path: a fresh entry is sent without awaiting anything or allocating
 * what a miss needs. True when answered.
 */
export function sendFresh(req: IncomingMessage, res: ServerResponse, key: string, deps: ServeCachedDeps): boolean {
  const entry = deps.cache.get(key);
  if (entry === undefined || Date.now() >= entry.freshUntil) return false;
  deps.lookups?.inc('hit');
  sendCached(req, res, entry);
  return true;
}

/** What answers with an entry, loaded or stale: by default the entry itself (/consume may go on to an arm of it). */
export type SendEntry = (entry: CachedResponse) => void;

/**
 * The miss path, once `sendFresh` returned false: the response is (re)built once
 * for all concurrent requests. When building fails
 * for a reason other than a domain answer (database or object store down, slow),
 * the stale entry is served if it is within stale-if-error, else 503.
 */
export function serveCached(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  dependsOn: readonly string[] | null,
  produce: () => Promise<ResponseSpec>,
  deps: ServeCachedDeps,
  errorHeaders: readonly string[] = [],
  divert?: (error: unknown) => boolean,
  send: SendEntry = (entry) => sendCached(req, res, entry),
): void {
  const entry = deps.cache.get(key);
  const now = Date.now();
  deps.lookups?.inc('miss');
  const load = deps.cache.fill(key, dependsOn, () => buildResponse(produce, { key, stale: entry !== undefined }, deps)).then(
    (fresh) => {
      deps.cache.noteLoadSuccess();
      return fresh;
    },
    (error: unknown) => {
      if (problemFromDomain(error) === null) deps.cache.noteDependencyFailure(Date.now());
      throw error;
    },
  );
  // A dependency failed a moment ago: answer now (the stale entry, else 503) rather than
  // after another load timeout; the load still runs (shared), and its success ends this.
  if (deps.cache.dependencyFailing(now, deps.config.loadTimeoutMs * 2)) {
    load.catch(() => undefined);
    answerFailedLoad(req, res, { error: new DependencyFailingError(), entry, errorHeaders }, deps, send);
    return;
  }
  load.then(send, (error: unknown) => {
    if (divert?.(error) !== true) answerFailedLoad(req, res, { error, entry, errorHeaders }, deps, send);
  });
}

/** One load: produced within the load timeout, then encoded; a failure that is not a domain answer is logged here. */
async function buildResponse(
  produce: () => Promise<ResponseSpec>,
  load: { key: string; stale: boolean },
  { config, log }: ServeCachedDeps,
): Promise<CachedResponse> {
  try {
    const spec = await withTimeout(produce(), config.loadTimeoutMs);
    return await buildCachedResponse(spec, config.cache, Date.now());
  } catch (error) {
    // Logged once per failed load, not once per request waiting on it.
    if (!isDomainError(error)) log.error({ err: error, key: load.key, stale: load.stale }, 'cannot build response');
    throw error;
  }
}

/** A failed load: the domain's answer (404, ...), else the stale entry within stale-if-error, else 503. */
export function answerFailedLoad(
  req: IncomingMessage,
  res: ServerResponse,
  failure: { error: unknown; entry: CachedResponse | undefined; errorHeaders: readonly string[] },
  deps: ServeCachedDeps,
  send: SendEntry = (stale) => sendCached(req, res, stale),
): void {
  const { error, entry, errorHeaders } = failure;
  const known = problemFromDomain(error);
  if (known) {
    sendProblem(res, known, errorHeaders);
    return;
  }
  if (entry !== undefined && Date.now() < entry.staleUntil) {
    deps.lookups?.inc('stale');
    send(entry);
    return;
  }
  const retryAfter = deps.config.retryAfterSeconds;
  sendProblem(
    res,
    problem(HttpErrorCode.Unavailable, `Components cannot be read right now. Retry in ${retryAfter} seconds.`),
    ['Retry-After', String(retryAfter), ...errorHeaders],
  );
}
