import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request header that carries a preview key (README "Private previews"). */
export const PREVIEW_KEY_HEADER = 'Cp-Preview-Key';

/** The response header naming the arm of an experience or rollout a /consume answer is (docs/experiences.md "Delivery"). */
export const ARM_HEADER = 'Cp-Arm';

/*
 * Delivery serves released UI to pages on any origin, without credentials:
 * `*` (never echoing the Origin, never Allow-Credentials), so responses need no
 * `Vary: Origin` and a CDN keeps one copy. Resource timing in full (`Timing-Allow-Origin`),
 * so the host SDK can tell a browser cache hit (`cache` of its load events) on any origin:
 * these responses hold nothing private.
 */
export const CORS_HEADERS: readonly string[] = [
  'Access-Control-Allow-Origin', '*',
  'Access-Control-Expose-Headers', `ETag, Deprecation, Sunset, Link, Retry-After, ${ARM_HEADER}`,
  'Timing-Allow-Origin', '*',
];

/** Browsers cache the preflight this long (Chromium caps it at 2 hours, Firefox at 24). */
export const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** OPTIONS: a CORS preflight when the browser sends one, else the list of methods (`POST, OPTIONS` for /v1/events). */
export function answerOptions(req: IncomingMessage, res: ServerResponse, extraHeaders: readonly string[] = [], methods = ALLOWED_METHODS): void {
  const isPreflight = req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
  const headers: string[] = ['Allow', methods, ...CORS_HEADERS, ...extraHeaders];
  if (isPreflight) {
    headers.push(
      'Access-Control-Allow-Methods', methods,
      // `*` covers every request header except Authorization, which delivery never takes (the
      // Content-Type of a JSON POST /v1/events included); the preview key is also named, so
      // private previews do not depend on the wildcard.
      'Access-Control-Allow-Headers', `${PREVIEW_KEY_HEADER}, *`,
      'Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS),
    );
  }
  res.writeHead(204, headers);
  res.end();
}
