import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { readCookies } from '@cp/web-forms';

/**
 * A JSON value in an httpOnly cookie, HMAC-signed (the first key signs, every key
 * verifies, for rotation) and carrying its own expiry, so a stolen old value or
 * an edited one is refused even if the browser kept it.
 */
export interface SignedCookie<T> {
  read(req: Request): T | null;
  write(res: Response, value: T, maxAgeSeconds: number): void;
  clear(res: Response): void;
}

export function signedCookie<T>(name: string, options: { keys: readonly string[]; secure: boolean }): SignedCookie<T> {
  const sign = (key: string, body: string) => createHmac('sha256', key).update(`${name}:${body}`).digest('base64url');
  const attributes = { httpOnly: true, sameSite: 'lax', secure: options.secure, path: '/' } as const;
  return {
    read(req) {
      const raw = readCookies(req).get(name);
      const dot = raw?.lastIndexOf('.') ?? -1;
      if (raw === undefined || dot < 0) return null;
      const body = raw.slice(0, dot);
      const signature = Buffer.from(raw.slice(dot + 1));
      const valid = options.keys.some((key) => {
        const expected = Buffer.from(sign(key, body));
        return expected.length === signature.length && timingSafeEqual(expected, signature);
      });
      if (!valid) return null;
      try {
        const { v, exp } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { v: T; exp: number };
        return typeof exp === 'number' && exp > Date.now() / 1000 ? v : null;
      } catch {
        return null;
      }
    },
    write(res, value, maxAgeSeconds) {
      const body = Buffer.from(JSON.stringify({ v: value, exp: Math.floor(Date.now() / 1000) + maxAgeSeconds })).toString('base64url');
      res.cookie(name, `${body}.${sign(options.keys[0] ?? '', body)}`, { ...attributes, maxAge: maxAgeSeconds * 1000 });
    },
    clear(res) {
      res.clearCookie(name, attributes);
    },
  };
}
