import { CimdRefusal } from './refusal.js';

/** A client_id that names a metadata document (or tries to): any absolute http(s) URL. */
export const isUrlClientId = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

export const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The draft's rules for a Client Identifier URL (draft-ietf-oauth-client-id-metadata-document
 * section 3): https, a path other than `/`, no user info, no fragment, no dot segments.
 * Checked on the raw string because `URL` normalizes dot segments and default ports
 * away, and the document must name exactly this string. Plain http passes only for a
 * loopback host and only with the development setting (`allowLoopback`).
 */
export function parseClientIdUrl(clientId: string, options: { allowLoopback: boolean }): URL {
  const url = URL.parse(clientId);
  const malformed = (): CimdRefusal =>
    new CimdRefusal(
      'bad-url',
      `client_id ${clientId} is not a usable client metadata document URL: it must be an https URL with a path, and no user name, fragment or "." / ".." segments`,
    );
  if (url === null || /[\s\\]/.test(clientId)) throw malformed();
  if (url.protocol === 'http:' && !(options.allowLoopback && LOOPBACK_NAMES.has(url.hostname))) {
    throw new CimdRefusal(
      'http-url',
      `client_id ${clientId} uses http: a client metadata document must be served over https`,
    );
  }
  const rawPath =
    clientId
      .slice(url.protocol.length + 2)
      .replace(/^[^/?#]*/, '')
      .split(/[?#]/)[0] ?? '';
  const dotSegment = rawPath.split('/').some((segment) => DOT_SEGMENT.test(segment));
  if (
    url.username !== '' ||
    url.password !== '' ||
    clientId.includes('#') ||
    rawPath === '' ||
    rawPath === '/' ||
    dotSegment
  ) {
    throw malformed();
  }
  return url;
}
