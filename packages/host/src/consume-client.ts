import { CpError } from './errors.js';
import { sdkError } from './problem.js';
import { backoff, sleep } from './timing.js';
import type { CpProblem } from './types.js';

export interface Answer {
  readonly etag: string | null;
  readonly body: unknown;
  /** Answered by the browser's HTTP cache (read from resource timing, docs/host-sdk.md "Usage analytics"). */
  readonly cached: boolean;
}

export interface GetOptions {
  readonly signal: AbortSignal;
  /** Revalidate: sent as If-None-Match, past the browser's cache; a 304 answers `null`. */
  readonly etag: string | null;
  /** Ask the server even when the browser holds a fresh copy (live components must not start from a stale one). */
  readonly fresh: boolean;
  /** Called before each retry with the problem of the attempt that failed. */
  readonly onRetry: (problem: CpProblem) => void;
  /** Sent with every attempt (the preview key). */
  readonly headers?: Record<string, string>;
  /** A static export: a 403 or 404 without a problem (what object stores answer) is NOT_FOUND with this detail. */
  readonly missing?: string;
}

const ATTEMPTS = 5;
/** A wrong Retry-After must not stall a page for hours. */
const MAX_WAIT_MS = 60_000;

/**
 * Nothing crossed the network for a body that has a size. Cross-origin, resource timing
 * shows sizes only under Timing-Allow-Origin: without it this says false.
 */
function fromCache(url: string): boolean {
  const timing = performance.getEntriesByName(url).pop() as PerformanceResourceTiming | undefined;
  return !!timing && timing.transferSize === 0 && timing.decodedBodySize > 0;
}

const isProblem = (body: unknown): body is CpProblem =>
  typeof body === 'object' && body !== null && typeof (body as CpProblem).code === 'string' && typeof (body as CpProblem).status === 'number';

/** Retry-After in ms (seconds or an HTTP date), or null when absent or unreadable. */
function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const ms = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - Date.now();
  return Number.isNaN(ms) ? null : Math.min(MAX_WAIT_MS, Math.max(0, ms));
}

/**
 * GETs JSON from the delivery API. Network errors and 5xx are retried with
 * backoff (Retry-After wins when the server sends one); 4xx are final. Rejects
 * with a CpError carrying the API's problem, NETWORK or BAD_RESPONSE.
 */
export async function getJson(url: string, options: GetOptions): Promise<Answer | null> {
  const { signal, etag } = options;
  for (let attempt = 0; ; attempt++) {
    let problem: CpProblem;
    let wait: number | null = null;
    try {
      const response = await fetch(url, {
        signal,
        cache: etag ? 'no-store' : options.fresh ? 'no-cache' : 'default',
        headers: etag ? { ...options.headers, 'If-None-Match': etag } : { ...options.headers },
      });
      if (response.status === 304) return null;
      const body: unknown = await response.json().catch(() => undefined);
      if (response.ok && body !== undefined) return { etag: response.headers.get('ETag'), body, cached: fromCache(url) };
      problem = isProblem(body)
        ? body
        : options.missing && (response.status === 403 || response.status === 404)
          ? sdkError('NOT_FOUND', options.missing, 404, 'Release').problem
          : sdkError('BAD_RESPONSE', `The delivery API answered ${response.status} without a JSON problem.`, response.status).problem;
      if (response.status < 500) throw new CpError(problem);
      wait = retryAfter(response.headers.get('Retry-After'));
    } catch (error) {
      if (error instanceof CpError || signal.aborted) throw error;
      problem = sdkError('NETWORK', `The delivery API at ${new URL(url).origin} could not be reached.`).problem;
    }
    if (attempt + 1 >= ATTEMPTS) throw new CpError(problem);
    options.onRetry(problem);
    await sleep(wait ?? backoff(attempt, 500, 8000), signal);
  }
}
