import { findUser, type User } from '@cp/domain';
import { Router, type Request, type Response } from 'express';
import { signIn } from '../accounts/sign-in.js';
import { isUrlClientId } from '../cimd/client-id-url.js';
import { saveConsent } from '../interactions/save-consent.js';
import { findWaitingInteraction, finishSignIn, type Interaction } from '../interactions/waiting-interaction.js';
import { CLI_CLIENT_ID } from '../oidc/cli-client.js';
import { deviceName } from '../oidc/device-flow.js';
import { consentPage } from '../pages/consent-page.js';
import { deviceConfirmPage } from '../pages/device-pages.js';
import { messagePage } from '../pages/message-pages.js';
import { signInPage } from '../pages/sign-in-pages.js';
import { csrfInput, field } from '@cp/web-forms';
import { presentedInvitation } from './presented-invitation.js';
import { formBody, refuseForgedForm, retryMessage, sendPage, SIGN_IN_FAILED, type PageContext } from './page-context.js';

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
  const pages = interactionPages(ctx);

  /** The interaction this page belongs to, or null once the expired page is sent. */
  const load = async (req: Request, res: Response, prompt?: 'login' | 'consent'): Promise<Interaction | null> => {
    const interaction = await findWaitingInteraction(provider, req, res, { uid: String(req.params.uid), prompt });
    if (interaction === null) sendPage(res, 400, expiredPage());
    return interaction;
  };

  router.get('/interaction/:uid', async (req, res) => {
    const interaction = await load(req, res);
    if (interaction === null) return;
    if (interaction.prompt.name === 'login') return pages.signIn(req, res, interaction, 200, null);
    const accountId = interaction.session?.accountId;
    const user = accountId === undefined ? null : await findUser({ userId: accountId }, ctx.domain);
    if (user === null) return sendPage(res, 400, expiredPage());
    await pages.consent(req, res, interaction, user);
  });

  router.post('/interaction/:uid/login', formBody, async (req, res) => {
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const interaction = await load(req, res, 'login');
    if (interaction === null) return;
    const result = await signIn(
      { email: field(req, 'email'), password: field(req, 'password'), ip: req.ip ?? 'unknown', invitation: presentedInvitation(req, interaction) },
      ctx,
    );
    if (result.ok) return finishSignIn(provider, req, res, result.user.id);
    if (result.reason === 'invalid') return pages.signIn(req, res, interaction, 401, SIGN_IN_FAILED);
    res.set('Retry-After', String(result.retryAfterSeconds));
    await pages.signIn(req, res, interaction, 429, retryMessage(result.retryAfterSeconds));
  });

  router.post('/interaction/:uid/consent', formBody, async (req, res) => {
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const interaction = await load(req, res, 'consent');
    if (interaction === null) return;
    if (field(req, 'decision') !== 'allow') {
      const denied = { error: 'access_denied', error_description: 'The user denied the application access.' };
      return provider.interactionFinished(req, res, denied, { mergeWithLastSubmission: false });
    }
    const grantId = await saveConsent(provider, interaction);
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });

  return router;
}

/** The sign-in and consent pages of an interaction, filled from its request parameters. */
function interactionPages(ctx: PageContext) {
  /** The application's name, and for a client metadata document the host that serves it (the name alone proves nothing). */
  const application = async (interaction: Interaction): Promise<{ name: string; documentHost: string | null }> => {
    const clientId = String(interaction.params.client_id);
    if (!isUrlClientId(clientId)) {
      const client = await ctx.provider.Client.find(clientId);
      return { name: client?.clientName ?? 'An unnamed application', documentHost: null };
    }
    // The document may have been refused since the request started (its cache expired): the page still shows its host.
    const client = await ctx.provider.Client.find(clientId).catch(() => undefined);
    return { name: client?.clientName ?? 'An unnamed application', documentHost: new URL(clientId).host };
  };
  const clientName = async (interaction: Interaction): Promise<string> => {
    const { name, documentHost } = await application(interaction);
    return documentHost === null ? name : `${name} (${documentHost})`;
  };
  return {
    async signIn(req: Request, res: Response, interaction: Interaction, status: number, error: string | null): Promise<void> {
      const hint = interaction.params.login_hint;
      sendPage(
        res,
        status,
        signInPage({
          action: `/interaction/${interaction.uid}/login`,
          csrf: ctx.csrf.token(req, res),
          email: field(req, 'email') || (typeof hint === 'string' ? hint : ''),
          error,
          invitation: presentedInvitation(req, interaction),
          signupHref: ctx.config.signupEnabled ? `/signup?interaction=${encodeURIComponent(interaction.uid)}` : null,
          clientName: await clientName(interaction),
        }),
      );
    },
    async consent(req: Request, res: Response, interaction: Interaction, user: User): Promise<void> {
      const scope = interaction.params.scope;
      const scopes = (typeof scope === 'string' ? scope : '').split(' ').filter((name) => name.length > 0);
      const { name, documentHost } = await application(interaction);
      if (interaction.params.client_id === CLI_CLIENT_ID) {
        // A device login whose person signed in after confirming the code: the same confirmation, now with the account.
        return sendPage(
          res,
          200,
          deviceConfirmPage({
            action: `/interaction/${interaction.uid}/consent`,
            hidden: csrfInput(ctx.csrf.token(req, res)),
            clientName: name,
            deviceName: deviceName(interaction.params.device_name),
            userCode: null,
            accountEmail: user.email,
            scopes,
            allow: { name: 'decision', value: 'allow' },
            deny: { name: 'decision', value: 'deny' },
          }),
        );
      }
      sendPage(
        res,
        200,
        consentPage({
          action: `/interaction/${interaction.uid}/consent`,
          csrf: ctx.csrf.token(req, res),
          clientName: name,
          documentHost,
          redirectTarget: redirectTarget(interaction.params.redirect_uri),
          scopes,
          accountEmail: user.email,
        }),
      );
    },
  };
}

const expiredPage = (): string =>
  messagePage({
    title: 'This sign-in request expired',
    message: 'It was finished, cancelled, or left open too long. Start again from the application you were connecting.',
  });
