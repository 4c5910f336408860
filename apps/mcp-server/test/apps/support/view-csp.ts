import type { ResourceCsp } from './view-protocol.js';

/*
 * The Content-Security-Policy a web host puts on the sandbox proxy page for one view, from the
 * resource's `_meta.ui.csp` (the extension's mapping): resourceDomains to the script, style, image,
 * font and media sources, connectDomains to connect-src, frameDomains to frame-src, baseUriDomains
 * to base-uri. Nothing else is allowed: a view that reaches an origin its resource did not declare
 * fails here as it would in a strict host. 'unsafe-inline' because a view is one HTML document with
 * its scripts and styles inline (and the proxy's own relay script is inline too).
 */

/** Plain origins (with an optional wildcard subdomain): nothing that could close a directive or add a keyword. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i;

/** The declared origins; the proxy URL carries them, so anything else (not a list, not an origin) is dropped. */
const sources = (declared: unknown): string[] =>
  Array.isArray(declared) ? declared.filter((entry): entry is string => typeof entry === 'string' && ORIGIN.test(entry)) : [];

const orNone = (values: readonly string[]): string => (values.length === 0 ? "'none'" : values.join(' '));

export function viewCsp(csp: ResourceCsp | undefined): string {
  const resources = sources(csp?.resourceDomains);
  return [
    "default-src 'none'",
    ['script-src', "'unsafe-inline'", ...resources].join(' '),
    ['style-src', "'unsafe-inline'", ...resources].join(' '),
    ['img-src', 'data:', ...resources].join(' '),
    `font-src ${orNone(resources)}`,
    `media-src ${orNone(resources)}`,
    `connect-src ${orNone(sources(csp?.connectDomains))}`,
    `frame-src ${orNone(sources(csp?.frameDomains))}`,
    `base-uri ${orNone(sources(csp?.baseUriDomains))}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
}
