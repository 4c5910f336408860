/** The delivery API this file was served by (`…/host/v1.js` -> `…`), the default `baseUrl`. */
export function defaultBaseUrl(): string {
  return new URL('..', import.meta.url).href.replace(/\/$/, '');
}
