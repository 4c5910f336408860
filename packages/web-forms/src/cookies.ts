import type { IncomingMessage } from 'node:http';

/** The request's cookies by name (first occurrence wins, as browsers send the most specific first). */
export function readCookies(req: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    const name = part.slice(0, Math.max(index, 0)).trim();
    if (name === '' || cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(index + 1).trim()));
    } catch {
      // A malformed value is treated as absent.
    }
  }
  return cookies;
}
