import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackAddress, isPublicAddress, pinnedLookup, type ResolvedAddress } from '@cp/http-runtime';
import { CimdRefusal } from './refusal.js';

/** Every address a host name resolves to (tests inject one that maps names to chosen addresses). */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: ResolveHost = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/**
 * The same address rule as every outbound request of the platform (webhooks too): only
 * ordinary public unicast addresses, loopback only with the development setting.
 */
const addressAllowed = (address: string, limits: FetchLimits): boolean =>
  isPublicAddress(address) || (limits.allowLoopback && isLoopbackAddress(address));

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

export interface FetchedDocument {
  readonly body: string;
  readonly cacheControl: string | undefined;
}

/** `application/json`, or a more specific `application/<something>+json` (the draft allows both). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

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
      checkedAddresses(url, limits, deps.resolveHost),
      deadline.signal,
      timedOut,
    );
    return await get(url, targets, limits, deps, deadline.signal, timedOut);
  } finally {
    clearTimeout(timer);
  }
}

/** Every address the host resolves to, all of them allowed; else a refusal. */
async function checkedAddresses(
  url: URL,
  limits: FetchLimits,
  resolveHost: ResolveHost,
): Promise<readonly ResolvedAddress[]> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: readonly ResolvedAddress[];
  try {
    // An address in the URL is the address: no resolver involved.
    addresses =
      isIP(hostname) === 0
        ? await resolveHost(hostname)
        : [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    throw new CimdRefusal(
      'dns-failed',
      `the host of the client metadata document (${url.host}) could not be resolved; check the client_id URL`,
    );
  }
  // One disallowed address refuses the name: a name mixing public and private addresses is not fetched.
  if (!addresses.every((entry) => addressAllowed(entry.address, limits))) {
    throw new CimdRefusal(
      'address-refused',
      `the host of the client metadata document (${url.host}) resolves to a private, loopback or otherwise non-public address, which this server does not fetch from; serve the document from a public address`,
    );
  }
  return addresses;
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
        readBody(url, res, limits).then(resolve, fail);
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

async function readBody(
  url: URL,
  res: IncomingMessage,
  limits: FetchLimits,
): Promise<FetchedDocument> {
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    throw new CimdRefusal(
      'redirect',
      `the client metadata document at ${url.href} answered with a redirect (${status}); redirects are not followed, so serve the document at the client_id URL itself`,
    );
  }
  if (status !== 200) {
    throw new CimdRefusal(
      'status',
      `the client metadata document at ${url.href} answered ${status}; it must answer 200 with the document`,
    );
  }
  const type = res.headers['content-type'] ?? '';
  if (!JSON_TYPE.test(type)) {
    throw new CimdRefusal(
      'content-type',
      `the client metadata document at ${url.href} is served as ${type === '' ? 'no content type' : JSON.stringify(type)}; serve it as application/json`,
    );
  }
  const tooLarge = (): CimdRefusal =>
    new CimdRefusal(
      'too-large',
      `the client metadata document at ${url.href} is larger than ${limits.maxBytes} bytes, the most this server reads; make it smaller`,
    );
  if (Number(res.headers['content-length'] ?? 0) > limits.maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  const cacheControl = res.headers['cache-control'];
  return { body: Buffer.concat(chunks).toString('utf8'), cacheControl };
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
