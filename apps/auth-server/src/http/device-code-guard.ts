import { clientNetwork } from '@cp/http-runtime';
import type { RequestHandler } from 'express';
import { messagePage } from '../pages/message-pages.js';
import { retryMessage, sendPage } from '../routes/page-context.js';
import type { Throttle } from '../security/throttle.js';

/**
 * In front of oidc-provider's code entry form (POST /device), which has no limit of its
 * own: every form sent (a code entered, confirmed or denied) counts against the client
 * network's budget, atomically, before oidc-provider looks the code up. A user code has
 * 20^8 values; without a limit, codes could be tried until one matches someone's waiting
 * device (RFC 8628 section 5.1). A person needs two or three forms per login. A store
 * that does not answer fails closed (503), as the sign-in forms do.
 */
export function deviceCodeGuard(throttle: Throttle): RequestHandler {
  return async (req, res, next) => {
    const wait = (await throttle.hit(clientNetwork(req.ip ?? 'unknown'))).retryAfterSeconds;
    if (wait === 0) return next();
    res.set('Retry-After', String(wait));
    sendPage(res, 429, messagePage({ title: 'Too many codes', message: `Too many device codes were sent from this network. ${retryMessage(wait)}` }));
  };
}
