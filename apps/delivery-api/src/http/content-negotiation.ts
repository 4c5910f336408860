import type { Encodings, Representation } from '../cache/cached-response.js';

type Coding = 'br' | 'gzip' | 'identity';

/** Browsers send a handful of distinct Accept-Encoding values: parse each once. */
const parsed = new Map<string, readonly Coding[]>();
const MEMO_LIMIT = 256;
const IDENTITY_ONLY: readonly Coding[] = ['identity'];

/**
 * The codings the client accepts, best first (RFC 9110 §12.5.3): q-values honoured,
 * `q=0` refuses, `*` stands for any coding not named. Ties prefer br, then gzip.
 */
export function acceptedCodings(header: string | undefined): readonly Coding[] {
  if (header === undefined || header === '') return IDENTITY_ONLY;
  const known = parsed.get(header);
  if (known) return known;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  const weightOf = (coding: Coding): number => {
    const named = weights.get(coding === 'gzip' && !weights.has('gzip') ? 'x-gzip' : coding);
    if (named !== undefined) return named;
    const any = weights.get('*');
    // identity is acceptable unless refused explicitly or through `*;q=0`.
    if (coding === 'identity') return any === 0 ? 0 : 0.001;
    return any ?? 0;
  };
  const order: Coding[] = ['br', 'gzip', 'identity'];
  const result = order.filter((coding) => weightOf(coding) > 0).sort((a, b) => weightOf(b) - weightOf(a));
  if (parsed.size >= MEMO_LIMIT) parsed.clear();
  parsed.set(header, result);
  return result;
}

/** The representation to send; identity when nothing better is acceptable (not 406: a body is better than none). */
export function chooseRepresentation(entry: Encodings, acceptEncoding: string | undefined): Representation {
  for (const coding of acceptedCodings(acceptEncoding)) {
    if (coding === 'br' && entry.br) return entry.br;
    if (coding === 'gzip' && entry.gzip) return entry.gzip;
    if (coding === 'identity') return entry.identity;
  }
  return entry.identity;
}

/** If-None-Match with the weak comparison RFC 9110 §13.1.2 prescribes for it. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}
