/** The delivery API this file was served by (`…/host/v1.js` -> `…`), the default `baseUrl`. */
export function defaultBaseUrl(): string {
  // Not `new URL('..', import.meta.url)` in one expression: bundlers (Vite) take that for an asset reference and emit a copy of the file.
  const here = import.meta.url;
  return new URL('..', here).href.replace(/\/$/, '');
}
