import type { HtmlLoader } from '../types.js';

/*
 * The integrity check of a component's linked files that declare `integrity`, by the browser's
 * own SRI (the same request the element makes later, so it may come from the cache). Shared by
 * the SDK (shadow isolation: the files load into the host page) and the frame document (iframe
 * isolation: it checks them from the frame, where they load, before writing the component), so
 * it is self-contained: no CpError here, a failure is plain data.
 */

/** A linked file to check, its URL already resolved against the host page. */
export interface LinkedFile {
  readonly url: string;
  readonly integrity: string;
  readonly credentials: RequestCredentials;
}

export interface LinkedFailure {
  readonly code: 'INTEGRITY_MISMATCH' | 'RESOURCE_FAILED';
  readonly detail: string;
}

/** The loader's linked scripts and stylesheets that declare integrity, resolved against `base` (the host page's base URL). */
export const linkedFiles = (loader: HtmlLoader, base: string): LinkedFile[] =>
  [...loader.scripts, ...loader.styles].flatMap((file) =>
    file.type === 'url' && file.integrity
      ? [{ url: new URL(file.url, base).href, integrity: file.integrity, credentials: file.crossOrigin === 'use-credentials' ? 'include' : 'same-origin' }]
      : [],
  );

/** A failed check and an unreachable file both reject the fetch: a second plain request tells them apart. */
async function check({ url, integrity, credentials }: LinkedFile): Promise<LinkedFailure | null> {
  const init: RequestInit = { mode: 'cors', credentials };
  const ok = (request: Promise<Response>): Promise<boolean> => request.then((response) => response.ok, () => false);
  if (await ok(fetch(url, { ...init, integrity }))) return null;
  return (await ok(fetch(url, init)))
    ? { code: 'INTEGRITY_MISMATCH', detail: `${url} does not match its integrity attribute (${integrity}).` }
    : { code: 'RESOURCE_FAILED', detail: `${url} could not be loaded (CORS is required for a file with an integrity attribute).` };
}

/** The first failure among `files` (all checked at once), or null when every one matches. */
export const checkLinkedFiles = async (files: readonly LinkedFile[]): Promise<LinkedFailure | null> =>
  (await Promise.all(files.map(check))).find((failure) => failure !== null) ?? null;
