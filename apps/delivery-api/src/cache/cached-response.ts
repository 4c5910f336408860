import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { JSON_CONTENT_TYPE, jsonBody } from '@cp/consume';
import type { LiveAssignment } from '@cp/domain';
import type { CachePolicy } from '../config.js';
import { ARM_HEADER, CORS_HEADERS } from '../http/cors.js';
import type { ServedSlot } from '../usage/served-counter.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Header name/value pairs, flat, as `res.writeHead` takes them. */
export type RawHeaders = readonly string[];

/** One encoding of a response, with every header precomputed. */
export interface Representation {
  readonly body: Buffer;
  /** Strong, per encoding (RFC 9110 §8.8.3): a hash of the identity body plus the coding. */
  readonly etag: string;
  readonly headers: RawHeaders;
  /** The headers a 304 repeats (RFC 9110 §15.4.5). */
  readonly notModifiedHeaders: RawHeaders;
}

export interface CachedResponse {
  readonly identity: Representation;
  readonly gzip: Representation | null;
  readonly br: Representation | null;
  /** Entity ids (components, flows) whose change makes this response stale. */
  readonly dependsOn: readonly string[];
  /** Epoch ms; 0 once invalidated. */
  freshUntil: number;
  /** Epoch ms after which not even a failing database justifies serving it. */
  readonly staleUntil: number;
  /** Bytes this entry holds, for the LRU bound. */
  readonly size: number;
  /** Counts each time the entry is sent (a `/consume` response; null for others). */
  readonly served: ServedSlot | null;
  /** /consume of an environment with a live experience or rollout: what keyed requests are assigned with. */
  readonly assignment: LiveAssignment | null;
  /** The same bodies for a keyed request (`Cache-Control: private`): null without an assignment. */
  readonly keyed: Encodings | null;
}

/** `private`: a preview opened by a preview key, for that caller only. */
export type Freshness = 'released' | 'preview' | 'private';

export interface ResponseSpec {
  readonly payload: unknown;
  readonly freshness: Freshness;
  readonly dependsOn: readonly string[];
  /** Endpoint-specific headers (the deprecation headers of /flow). */
  readonly extraHeaders?: RawHeaders;
  /** /consume: the served count of its component, environment and variant. */
  readonly served?: ServedSlot;
  /** /consume while an experience or a rollout is live: the assignment and the arm this body is. */
  readonly experience?: { readonly assignment: LiveAssignment; readonly arm: string } | null;
}

/** The encodings of one response, as `sendCached` chooses among them. */
export type Encodings = Pick<CachedResponse, 'identity' | 'gzip' | 'br'> & { readonly served?: ServedSlot | null };

/** One encoding of a body whose identity bytes hash to `hash`, with its headers. */
export function representation(bytes: Buffer, hash: string, coding: string | null, common: RawHeaders): Representation {
  const etag = coding === null ? `"${hash}"` : `"${hash}-${coding}"`;
  const notModifiedHeaders = ['ETag', etag, ...common];
  const headers = [...notModifiedHeaders, 'Content-Length', String(bytes.length), 'X-Content-Type-Options', 'nosniff'];
  if (coding !== null) headers.push('Content-Encoding', coding);
  return { body: bytes, etag, headers, notModifiedHeaders };
}

export const cacheControlFor = (freshness: Freshness, policy: CachePolicy): string =>
  freshness === 'private'
    ? 'private, no-store'
    : freshness === 'preview'
      ? 'no-cache'
      : `public, max-age=${policy.maxAgeSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}, stale-if-error=${policy.staleIfErrorSeconds}`;

/** Vary of a /consume response: every response of a component environment with a live assignment names the keyed headers. */
const VARY = 'Accept-Encoding';
const VARY_ASSIGNED = 'Accept-Encoding, Cp-Key, Cp-Attributes';

/**
 * Serializes a payload once: JSON bytes, a content hash for the ETag, and (above
 * the threshold) gzip and brotli bodies, compressed off the event loop. Brotli at
 * quality 5 compresses about as well as 11 here at a fiftieth of the time, which
 * keeps a cache miss cheap.
 */
export async function buildCachedResponse(spec: ResponseSpec, policy: CachePolicy, now: number): Promise<CachedResponse> {
  const body = jsonBody(spec.payload);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  const experience = spec.experience ?? null;
  const headersWith = (cacheControl: string): string[] => [
    'Content-Type', JSON_CONTENT_TYPE,
    'Cache-Control', cacheControl,
    'Vary', experience === null ? VARY : VARY_ASSIGNED,
    ...CORS_HEADERS,
    ...(experience === null ? [] : [ARM_HEADER, experience.arm]),
    ...(spec.extraHeaders ?? []),
  ];
  const common = headersWith(cacheControlFor(spec.freshness, policy));
  const represent = (bytes: Buffer, coding: string | null) => representation(bytes, hash, coding, common);
  let gz: Representation | null = null;
  let br: Representation | null = null;
  if (body.length >= policy.compressionMinBytes) {
    const [gzBody, brBody] = await Promise.all([
      gzipAsync(body, { level: 6 }),
      brotliAsync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    ]);
    // A coding that does not save bytes is not worth a Content-Encoding.
    if (gzBody.length < body.length) gz = represent(gzBody, 'gzip');
    if (brBody.length < body.length) br = represent(brBody, 'br');
  }
  const identity = represent(body, null);
  const served = spec.served ?? null;
  let keyed: Encodings | null = null;
  if (experience !== null) {
    // The user's own arm: as fresh as the shared answer, but never kept by a shared cache.
    const own = headersWith(`private, max-age=${policy.maxAgeSeconds}`);
    const privately = (shared: Representation | null, coding: string | null) =>
      shared === null ? null : representation(shared.body, hash, coding, own);
    keyed = { identity: privately(identity, null)!, gzip: privately(gz, 'gzip'), br: privately(br, 'br'), served };
  }
  return {
    identity,
    gzip: gz,
    br,
    dependsOn: spec.dependsOn,
    freshUntil: now + policy.ttlSeconds * 1000,
    staleUntil: now + (policy.ttlSeconds + policy.staleIfErrorSeconds) * 1000,
    size: body.length + (gz?.body.length ?? 0) + (br?.body.length ?? 0) + 1024,
    served,
    assignment: experience?.assignment ?? null,
    keyed,
  };
}
