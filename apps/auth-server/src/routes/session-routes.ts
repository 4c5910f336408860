import { Router, type Request, type Response } from 'express';
import { signIn } from '../accounts/sign-in.js';
import { signOutPage } from '../pages/message-pages.js';
import { signInPage } from '../pages/sign-in-pages.js';
import { field } from '@cp/web-forms';
import { presentedInvitation } from './presented-invitation.js';
import { formBody, refuseForgedForm, retryMessage, sendPage, SIGN_IN_FAILED, type PageContext } from './page-context.js';

/** Sign-in and sign-out outside an authorization request (for /account). */
export function sessionRoutes(ctx: PageContext): Router {
  const router = Router();

  const renderSignIn = (req: Request, res: Response, status: number, error: string | null) => {
    const invitation = presentedInvitation(req);
    sendPage(
      res,
      status,
      signInPage({
        action: '/login',
        csrf: ctx.csrf.token(req, res),
        email: field(req, 'email'),
        error,
        invitation,
        signupHref: ctx.config.signupEnabled ? (invitation === '' ? '/signup' : `/signup?invitation=${invitation}`) : null,
        clientName: null,
      }),
    );
  };

  router.get('/login', async (req, res) => {
    if ((await ctx.sessions.accountId(req, res)) !== undefined) return res.redirect(303, '/account');
    renderSignIn(req, res, 200, null);
  });

  router.post('/login', formBody, async (req, res) => {
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const result = await signIn({ email: field(req, 'email'), password: field(req, 'password'), ip: req.ip ?? 'unknown', invitation: presentedInvitation(req) }, ctx);
    if (result.ok) {
      await ctx.sessions.signIn(req, res, result.user.id);
      return res.redirect(303, '/account');
    }
    if (result.reason === 'throttled') {
      res.set('Retry-After', String(result.retryAfterSeconds));
      return renderSignIn(req, res, 429, retryMessage(result.retryAfterSeconds));
    }
    renderSignIn(req, res, 401, SIGN_IN_FAILED);
  });

  router.get('/logout', async (req, res) => {
    const signedIn = (await ctx.sessions.accountId(req, res)) !== undefined;
    sendPage(res, 200, signOutPage({ csrf: ctx.csrf.token(req, res), signedIn }));
  });

  router.post('/logout', formBody, async (req, res) => {
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    await ctx.sessions.signOut(req, res);
    sendPage(res, 200, signOutPage({ csrf: ctx.csrf.token(req, res), signedIn: false }));
  });

  return router;
}
