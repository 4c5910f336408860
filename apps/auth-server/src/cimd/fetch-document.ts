import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, type ResolvedAddress } from '@cp/http-runtime';
import { checkedAddresses, type ResolveHost } from './checked-addresses.js';
import { type FetchedDocument, readDocument } from './read-document.js';
import { CimdRefusal } from './refusal.js';

export interface FetchLimits {
  readonly allowLoopback: boolean;
  readonly maxBytes: number;
  /** For everything: resolving, connecting, TLS, headers and body. */
  readonly timeoutMs: number;
}

export interface FetchDeps {
  readonly resolveHost: ResolveHost;
  /** Tests only: the certificate authority of their loopback https server (never from the environment). */
  readonly tlsCa?: string | Buffer;
}

/**
 * GETs a client metadata document with the protections the draft asks for (section
 * 8.6-8.7): the host is resolved once and every address it resolves to must be public
 * (or loopback with the development setting); the connection goes to the checked
 * address (a pinned `lookup`, so a second resolution cannot swap in another); no
 * redirects; 200 only; JSON only; at most `maxBytes`; one deadline for everything.
 */
export async function fetchDocument(
  url: URL,
  limits: FetchLimits,
  deps: FetchDeps,
): Promise<FetchedDocument> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.timeoutMs);
  const timedOut = (): CimdRefusal =>
    new CimdRefusal(
      'timeout',
      `the client metadata document at ${url.href} did not arrive within ${limits.timeoutMs / 1000} seconds; serve it faster`,
    );
  try {
    const targets = await withDeadline(
      checkedAddresses(url, limits.allowLoopback, deps.resolveHost),
      deadline.signal,
      timedOut,
    );
    return await get(url, targets, limits, deps, deadline.signal, timedOut);
  } finally {
    clearTimeout(timer);
  }
}

function get(
  url: URL,
  targets: readonly ResolvedAddress[],
  limits: FetchLimits,
  deps: FetchDeps,
  signal: AbortSignal,
  timedOut: () => CimdRefusal,
): Promise<FetchedDocument> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const connectFailed = (): CimdRefusal =>
    new CimdRefusal(
      'connect-failed',
      `the client metadata document at ${url.href} could not be fetched (no connection or no valid TLS certificate); check that it is served over https at that URL`,
    );
  return new Promise<FetchedDocument>((resolve, reject) => {
    const fail = (error: unknown): void => {
      req.destroy();
      reject(error instanceof CimdRefusal ? error : connectFailed());
    };
    const onAbort = (): void => fail(timedOut());
    const req = request(
      url,
      {
        method: 'GET',
        headers: {
          accept: 'application/json',
          'user-agent': 'component-platform-auth (client metadata document)',
        },
        lookup: pinnedLookup(targets),
        agent: false,
        ...(url.protocol === 'https:' && deps.tlsCa !== undefined ? { ca: deps.tlsCa } : {}),
      },
      (res) => {
        readDocument(url, res, limits.maxBytes).then(resolve, fail);
      },
    );
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal.removeEventListener('abort', onAbort));
    req.on('error', () => {
      if (!signal.aborted) reject(connectFailed());
    });
    req.end();
  });
}

function withDeadline<T>(
  work: Promise<T>,
  signal: AbortSignal,
  timedOut: () => CimdRefusal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(timedOut());
    const onAbort = (): void => reject(timedOut());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
