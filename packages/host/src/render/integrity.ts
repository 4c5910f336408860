import type { HtmlLoader } from '../types.js';
import { sdkError } from '../problem.js';
import { checkLinkedFiles, type LinkedFailure, type LinkedFile } from './linked-integrity.js';

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

/** The failure a linked-file check reported (here or from the frame), as the `CpError` render rejects with. */
export const linkedError = (failure: LinkedFailure) => sdkError(failure.code, failure.detail);

/** Rejects with INTEGRITY_MISMATCH unless the HTML matches the loader's integrity (WebCrypto: browsers and Node alike). */
export async function verifyHtml(loader: HtmlLoader): Promise<void> {
  if (!(await htmlMatches(loader.HTML, loader.integrity))) throw sdkError('INTEGRITY_MISMATCH', `The component HTML does not match its integrity (${loader.integrity}).`);
}

/**
 * Rejects with INTEGRITY_MISMATCH (or RESOURCE_FAILED) unless the HTML and every one of `linked`
 * matches. Iframe isolation passes none: the frame checks them where they load (render/frame.ts).
 */
export async function verifyIntegrity(loader: HtmlLoader, linked: readonly LinkedFile[]): Promise<void> {
  const [, failure] = await Promise.all([verifyHtml(loader), checkLinkedFiles(linked)]);
  if (failure) throw linkedError(failure);
}
