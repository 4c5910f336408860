import { findSignedInUser } from '@cp/domain';
import { Router, type Response } from 'express';
import { callbackPath } from '../auth/sign-in.js';
import { messagePage } from '../pages/layout.js';
import { signedOutPage } from '../pages/signed-out-page.js';
import { type RouteContext, query, safeReturnTo, sendPage, formBody } from './context.js';

const LOGIN_SECONDS = 10 * 60;

/** Sign-in through the auth server (OpenID Connect), the callback, and sign-out. */
export function authRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/login', async (req, res) => {
    await beginSignIn(ctx, res, { returnTo: safeReturnTo(query(req, 'returnTo') || '/') });
  });

  router.get(callbackPath, async (req, res) => {
    const pending = ctx.login.read(req);
    ctx.login.clear(res);
    if (pending === null) return res.redirect(303, '/login');
    try {
      const { userId } = await ctx.signIn.finish(new URL(req.originalUrl, ctx.config.publicUrl), pending);
      if ((await findSignedInUser({ actor: { userId } }, ctx.domain)) === null) throw new Error('unknown user');
      ctx.session.write(res, { userId }, ctx.config.sessionSeconds);
      res.redirect(303, safeReturnTo(pending.returnTo));
    } catch (error) {
      ctx.log.warn({ err: error }, 'sign-in callback refused');
      sendPage(res, 400, messagePage({ title: 'Sign-in did not complete', message: 'The sign-in was cancelled, expired or could not be checked.', chrome: null, alert: true, link: { href: `/login?returnTo=${encodeURIComponent(safeReturnTo(pending.returnTo))}`, label: 'Sign in again' } }));
    }
  });

  // Not a kit action (../actions): signing out needs no session, and a form without a valid CSRF token is ignored
  // (another site cannot sign people out) rather than answered with the kit's "form expired" page.
  router.post('/logout', formBody, (req, res) => {
    if (ctx.csrf.verify(req)) ctx.session.clear(res);
    res.redirect(303, '/signed-out');
  });

  router.get('/signed-out', (req, res) => {
    if (ctx.session.read(req) !== null) return res.redirect(303, '/');
    sendPage(res, 200, signedOutPage(ctx.config.issuer));
  });

  return router;
}

/**
 * Sends the browser to the auth server's sign-in; back at `returnTo` afterwards. `loginHint` pre-fills its email
 * field; `invitation` (the link's token) spares the invitee the auth server's per-network budgets.
 */
export async function beginSignIn(ctx: RouteContext, res: Response, options: { returnTo: string; loginHint?: string; invitation?: string }): Promise<void> {
  try {
    const { url, pending } = await ctx.signIn.start(options.returnTo, {
      ...(options.loginHint === undefined ? {} : { loginHint: options.loginHint }),
      ...(options.invitation === undefined ? {} : { invitation: options.invitation }),
    });
    ctx.login.write(res, pending, LOGIN_SECONDS);
    res.redirect(303, url);
  } catch (error) {
    ctx.log.error({ err: error }, 'cannot start the sign-in (auth server unreachable?)');
    sendPage(res, 503, messagePage({ title: 'Sign-in is unavailable', message: 'The sign-in service cannot be reached right now. Try again in a moment.', chrome: null, alert: true }));
  }
}
