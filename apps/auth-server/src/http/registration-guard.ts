import type { RequestHandler } from 'express';
import type { Throttle } from '../security/throttle.js';

/**
 * In front of oidc-provider's registration endpoint: CORS for browser-based MCP
 * clients (registration is open and uses no cookies, so any origin may call it),
 * and the per-IP registration budget.
 */
export function registrationGuard(throttle: Throttle): RequestHandler {
  return async (req, res, next) => {
    res.set('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.set({ 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'content-type, authorization', 'Access-Control-Max-Age': '600' });
      res.status(204).end();
      return;
    }
    if (req.method === 'POST') {
      const wait = await throttle.hit(req.ip ?? 'unknown');
      if (wait > 0) {
        res.status(429).set('Retry-After', String(wait)).json({
          error: 'too_many_requests',
          error_description: `Too many client registrations from this address. Retry in ${wait} seconds, or reuse the client you registered.`,
        });
        return;
      }
    }
    next();
  };
}
