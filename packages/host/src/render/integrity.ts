import type { HtmlLoader } from '../types.js';
import { sdkError } from '../problem.js';

const SRI_HASH = /^(sha256|sha384|sha512)-([A-Za-z0-9+/]+={0,2})(\?.*)?$/;

/** The HTML's bytes (the exact uploaded text, UTF-8) against SRI metadata: any hash of the strongest algorithm named. */
async function htmlMatches(html: string, metadata: string): Promise<boolean> {
  const hashes = metadata
    .split(/\s+/)
    .map((token) => SRI_HASH.exec(token))
    .flatMap((match) => (match ? [{ algorithm: match[1]!, digest: match[2]! }] : []));
  // 'sha256' < 'sha384' < 'sha512' as strings.
  const strongest = hashes.map((hash) => hash.algorithm).sort().pop();
  if (!strongest) return false;
  if (!crypto.subtle) throw sdkError('INTEGRITY_MISMATCH', 'The component HTML cannot be verified: crypto.subtle needs a secure context (https).');
  const digest = new Uint8Array(await crypto.subtle.digest(`SHA-${strongest.slice(3)}`, new TextEncoder().encode(html)));
  const actual = btoa(String.fromCharCode(...digest));
  return hashes.some((hash) => hash.algorithm === strongest && hash.digest === actual);
}

/**
 * A linked file that declares `integrity`, checked by the browser's own SRI
 * (the same request the element makes later, so it may come from the cache).
 * A failed check and an unreachable file both reject the fetch: a second plain
 * request tells them apart.
 */
async function checkLinked(url: string, integrity: string, crossOrigin: string | null): Promise<void> {
  const href = new URL(url, document.baseURI).href;
  const init: RequestInit = { mode: 'cors', credentials: crossOrigin === 'use-credentials' ? 'include' : 'same-origin' };
  const ok = (request: Promise<Response>): Promise<boolean> => request.then((response) => response.ok, () => false);
  if (await ok(fetch(href, { ...init, integrity }))) return;
  throw (await ok(fetch(href, init)))
    ? sdkError('INTEGRITY_MISMATCH', `${href} does not match its integrity attribute (${integrity}).`)
    : sdkError('RESOURCE_FAILED', `${href} could not be loaded (CORS is required for a file with an integrity attribute).`);
}

/** Rejects with INTEGRITY_MISMATCH unless the HTML matches the loader's integrity (WebCrypto: browsers and Node alike). */
export async function verifyHtml(loader: HtmlLoader): Promise<void> {
  if (!(await htmlMatches(loader.HTML, loader.integrity))) throw sdkError('INTEGRITY_MISMATCH', `The component HTML does not match its integrity (${loader.integrity}).`);
}

/** Rejects with INTEGRITY_MISMATCH (or RESOURCE_FAILED) unless the HTML and every linked file that declares integrity match. */
export async function verifyIntegrity(loader: HtmlLoader): Promise<void> {
  const linked = [...loader.scripts, ...loader.styles].flatMap((file) =>
    file.type === 'url' && file.integrity ? [checkLinked(file.url, file.integrity, file.crossOrigin)] : [],
  );
  await Promise.all([verifyHtml(loader), ...linked]);
}
