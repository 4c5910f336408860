import { clientNetwork } from '@cp/http-runtime';
import { RateLimitStoreError } from '@cp/http-runtime/rate-limit';
import type { RequestHandler } from 'express';
import { STORE_UNAVAILABLE_RETRY_SECONDS, type Throttle } from '../security/throttle.js';

/**
 * In front of oidc-provider's registration endpoint: CORS for browser-based MCP
 * clients (registration is open and uses no cookies, so any origin may call it),
 * and the registration budget per client network.
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
      let wait: number;
      try {
        wait = (await throttle.hit(clientNetwork(req.ip ?? 'unknown'))).retryAfterSeconds;
      } catch (error) {
        if (!(error instanceof RateLimitStoreError)) throw error;
        // Fail closed, as the sign-in forms do (README "Throttling").
        res.status(503).set('Retry-After', String(STORE_UNAVAILABLE_RETRY_SECONDS)).json({
          error: 'temporarily_unavailable',
          error_description: `Client registration is paused: the server cannot count registrations right now. Retry in ${STORE_UNAVAILABLE_RETRY_SECONDS} seconds.`,
        });
        return;
      }
      if (wait > 0) {
        res.status(429).set('Retry-After', String(wait)).json({
          error: 'too_many_requests',
          error_description: `Too many client registrations from this network. Retry in ${wait} seconds, or reuse the client you registered.`,
        });
        return;
      }
    }
    next();
  };
}
