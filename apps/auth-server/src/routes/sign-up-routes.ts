import { ErrorCode, httpStatusOf, isDomainError } from '@cp/domain';
import { Router, type Request, type Response } from 'express';
import { signUp } from '../accounts/sign-up.js';
import { findWaitingInteraction, finishSignIn } from '../interactions/waiting-interaction.js';
import { messagePage } from '../pages/message-pages.js';
import { signUpPage } from '../pages/sign-in-pages.js';
import { field } from '@cp/web-forms';
import { claimSignUpExemption } from '../security/invitation-exemption.js';
import { presentedInvitation } from './presented-invitation.js';
import { clientNetwork } from '@cp/http-runtime';
import { formBody, refuseForgedForm, retryMessage, sendPage, type PageContext } from './page-context.js';

/** The interaction a sign-up link came from (`?interaction=<uid>`), if any. */
const interactionOf = (req: Request): string | null => {
  const uid = req.query.interaction;
  return typeof uid === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(uid) ? uid : null;
};

/**
 * Sign-up at /signup. Reached from an authorization's sign-in page it carries the
 * interaction id, and a new account goes straight back to that authorization,
 * signed in; otherwise it ends on /account.
 */
export function signUpRoutes(ctx: PageContext): Router {
  const router = Router();

  const render = async (req: Request, res: Response, status: number, error: string | null) => {
    const uid = interactionOf(req);
    const interaction = uid === null ? null : await findWaitingInteraction(ctx.provider, req, res, { uid, prompt: 'login' });
    const hint = interaction?.params.login_hint;
    sendPage(
      res,
      status,
      signUpPage({
        action: uid === null ? '/signup' : `/signup?interaction=${uid}`,
        csrf: ctx.csrf.token(req, res),
        // The email the authorization request suggested (`login_hint`: the dashboard's invitation link) unless one was typed.
        email: field(req, 'email') || (typeof hint === 'string' ? hint : ''),
        error,
        invitation: presentedInvitation(req, interaction),
        loginHref: uid === null ? '/login' : `/interaction/${uid}`,
      }),
    );
  };

  router.all('/signup', (_req, res, next) => {
    if (ctx.config.signupEnabled) return next();
    sendPage(res, 404, messagePage({ title: 'Sign-up is closed', message: 'New accounts cannot be created here. Ask an administrator for access.' }));
  });

  router.get('/signup', (req, res) => render(req, res, 200, null));

  router.post('/signup', formBody, async (req, res) => {
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const email = field(req, 'email');
    // A pending invitation for this email spares the network budget, once (README "Throttling").
    const exemption = await claimSignUpExemption({ token: field(req, 'invitation'), email }, ctx);
    const wait = exemption === null ? (await ctx.throttles.signupPerNetwork.hit(clientNetwork(req.ip ?? 'unknown'))).retryAfterSeconds : 0;
    if (wait > 0) {
      res.set('Retry-After', String(wait));
      return render(req, res, 429, retryMessage(wait));
    }
    let userId: string;
    try {
      userId = (await signUp({ email, password: field(req, 'password') }, ctx)).id;
    } catch (error) {
      if (!isDomainError(error)) throw error;
      // A password refused before hashing cost nothing: the invitee may correct it, still exempt.
      if (exemption !== null && error.code === ErrorCode.InvalidInput) await exemption.giveBack();
      return render(req, res, httpStatusOf(error.code), error.message);
    }
    ctx.log.info({ userId }, 'account created');

    const uid = interactionOf(req);
    if (uid !== null && (await continueAuthorization(ctx, req, res, { uid, userId }))) return;
    // No authorization waiting (or it expired meanwhile): sign in here and show the account.
    await ctx.sessions.signIn(req, res, userId);
    res.redirect(303, '/account');
  });

  return router;
}

/**
 * Finishes the authorization the sign-up came from, signed in as the new account;
 * false when it no longer waits at its sign-in step (finished, expired, or another attempt's).
 */
async function continueAuthorization(ctx: PageContext, req: Request, res: Response, to: { uid: string; userId: string }): Promise<boolean> {
  const interaction = await findWaitingInteraction(ctx.provider, req, res, { uid: to.uid, prompt: 'login' });
  if (interaction === null) return false;
  await finishSignIn(ctx.provider, req, res, to.userId);
  return true;
}
