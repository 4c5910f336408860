import { Router, type Request, type Response } from 'express';
import { errors } from 'oidc-provider';
import { signIn } from '../accounts/sign-in.js';
import { consentPage } from '../pages/consent-page.js';
import { messagePage } from '../pages/message-pages.js';
import { signInPage } from '../pages/sign-in-pages.js';
import { field, formBody, refuseForgedForm, retryMessage, sendPage, SIGN_IN_FAILED, type PageContext } from './page-context.js';

type Interaction = Awaited<ReturnType<PageContext['provider']['interactionDetails']>>;

/** Where the browser goes afterwards, as a person recognizes it. */
export function redirectTarget(redirectUri: unknown): string {
  const url = typeof redirectUri === 'string' ? URL.parse(redirectUri) : null;
  if (url === null) return 'an unknown address';
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `${url.protocol}//${url.host}`;
}

/**
 * The pages oidc-provider sends the browser to while an authorization request
 * waits: sign-in, then consent. Each checks that the interaction in the cookie is
 * the one in the URL, so a page left open from another attempt cannot finish it.
 */
export function interactionRoutes(ctx: PageContext): Router {
  const { provider } = ctx;
  const router = Router();

  const load = async (req: Request, res: Response, prompt?: 'login' | 'consent'): Promise<Interaction | null> => {
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(req, res);
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
      sendPage(res, 400, expiredPage());
      return null;
    }
    if (interaction.uid !== req.params.uid || (prompt !== undefined && interaction.prompt.name !== prompt)) {
      sendPage(res, 400, expiredPage());
      return null;
    }
    return interaction;
  };

  const clientName = async (interaction: Interaction): Promise<string> => {
    const client = await provider.Client.find(String(interaction.params.client_id));
    return client?.clientName ?? 'An unnamed application';
  };

  const renderSignIn = async (req: Request, res: Response, interaction: Interaction, status: number, error: string | null) => {
    sendPage(
      res,
      status,
      signInPage({
        action: `/interaction/${interaction.uid}/login`,
        csrf: ctx.csrf.token(req, res),
        email: field(req, 'email') || (typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : ''),
        error,
        signupHref: ctx.config.signupEnabled ? `/signup?interaction=${encodeURIComponent(interaction.uid)}` : null,
        clientName: await clientName(interaction),
      }),
    );
  };

  router.get('/interaction/:uid', async (req, res) => {
    const interaction = await load(req, res);
    if (interaction === null) return;
    if (interaction.prompt.name === 'login') {
      await renderSignIn(req, res, interaction, 200, null);
      return;
    }
    const accountId = interaction.session?.accountId;
    const user = accountId === undefined ? null : await ctx.domain.repos.users.findById(accountId);
    if (user === null) {
      sendPage(res, 400, expiredPage());
      return;
    }
    sendPage(
      res,
      200,
      consentPage({
        action: `/interaction/${interaction.uid}/consent`,
        csrf: ctx.csrf.token(req, res),
        clientName: await clientName(interaction),
        redirectTarget: redirectTarget(interaction.params.redirect_uri),
        scopes: (typeof interaction.params.scope === 'string' ? interaction.params.scope : '').split(' ').filter((scope) => scope.length > 0),
        accountEmail: user.email,
      }),
    );
  });

  router.post('/interaction/:uid/login', formBody, async (req, res) => {
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const interaction = await load(req, res, 'login');
    if (interaction === null) return;
    const result = await signIn({ email: field(req, 'email'), password: field(req, 'password'), ip: req.ip ?? 'unknown' }, ctx);
    if (!result.ok) {
      if (result.reason === 'throttled') res.set('Retry-After', String(result.retryAfterSeconds));
      const throttled = result.reason === 'throttled';
      await renderSignIn(req, res, interaction, throttled ? 429 : 401, throttled ? retryMessage(result.retryAfterSeconds) : SIGN_IN_FAILED);
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: result.user.id, amr: ['pwd'] } }, { mergeWithLastSubmission: false });
  });

  router.post('/interaction/:uid/consent', formBody, async (req, res) => {
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const interaction = await load(req, res, 'consent');
    if (interaction === null) return;
    if (field(req, 'decision') !== 'allow') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user denied the application access.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grantId = await saveConsent(ctx, interaction);
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });

  return router;
}

/**
 * Grants exactly what the request asked for and was missing (oidc-provider lists
 * it in the prompt details), on the existing grant when there is one.
 */
async function saveConsent(ctx: PageContext, interaction: Interaction): Promise<string> {
  const { Grant } = ctx.provider;
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const existing = interaction.grantId === undefined ? undefined : await Grant.find(interaction.grantId);
  const grant = existing ?? new Grant({ accountId: interaction.session?.accountId, clientId: String(interaction.params.client_id) });
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return grant.save();
}

const expiredPage = (): string =>
  messagePage({
    title: 'This sign-in request expired',
    message: 'It was finished, cancelled, or left open too long. Start again from the application you were connecting.',
  });
