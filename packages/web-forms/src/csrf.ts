import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { readCookies } from './cookies.js';

/** The hidden input every form carries. */
export const CSRF_FIELD = 'csrf_token';

export interface Csrf {
  /** The token to put in a form; sets the CSRF cookie when the browser has none. */
  token(req: Request, res: Response): string;
  /** True when the submitted form carries the token that matches the browser's cookie. */
  verify(req: Request): boolean;
}

/**
 * Signed double-submit: a random httpOnly cookie, and in each form an HMAC of it
 * under a server key. Another site can make the browser send the cookie but can
 * neither read it nor compute the HMAC. In production the cookie is `Secure` with
 * the `__Host-` prefix, so no subdomain can plant one.
 */
export function createCsrf(options: { key: string; secure: boolean; cookieName?: string }): Csrf {
  const base = options.cookieName ?? 'cp_csrf';
  const cookieName = options.secure ? `__Host-${base}` : base;
  const sign = (value: string): string => createHmac('sha256', options.key).update(`csrf:${value}`).digest('base64url');

  return {
    token(req, res) {
      let value = readCookies(req).get(cookieName);
      if (value === undefined || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
        value = randomBytes(32).toString('base64url');
        res.cookie(cookieName, value, { httpOnly: true, sameSite: 'lax', secure: options.secure, path: '/' });
        // Later forms rendered in this same response must use the new value.
        req.headers.cookie = `${cookieName}=${value}; ${req.headers.cookie ?? ''}`;
      }
      return sign(value);
    },
    verify(req) {
      const value = readCookies(req).get(cookieName);
      const submitted: unknown = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
      if (value === undefined || typeof submitted !== 'string') return false;
      const expected = Buffer.from(sign(value));
      const actual = Buffer.from(submitted);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
