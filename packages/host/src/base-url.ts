/** The delivery API this file was served by (`…/host/v1.js` -> `…`), the default `baseUrl`. */
export function defaultBaseUrl(): string {
  // Never `new URL('..', import.meta.url)` in the built file: bundlers (Vite) take that for an asset reference and
  // emit a copy of the file. `String(…)` keeps the minifier from folding it back into that shape.
  const here = String(import.meta.url);
  return new URL('..', here).href.replace(/\/$/, '');
}
