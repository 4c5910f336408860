import * as oidc from 'openid-client';
import type { DashboardConfig } from '../config.js';

/** A login in progress, kept in a signed cookie between the redirect and the callback. */
export interface PendingLogin {
  readonly state: string;
  readonly verifier: string;
  readonly returnTo: string;
}

/** The OpenID Connect side of signing in (authorization code + PKCE, confidential client). */
export interface SignIn {
  /**
   * `loginHint`: the email the auth server's sign-in and sign-up pages start with (an invitation's);
   * `invitation`: the invitation link's token, which those pages carry so that the invitee does not
   * spend the per-network budgets (auth server README "Throttling").
   */
  start(returnTo: string, options?: { loginHint?: string; invitation?: string }): Promise<{ url: string; pending: PendingLogin }>;
  /** The user id (`sub`) once the code is exchanged; throws when the callback is not valid. */
  finish(callbackUrl: URL, pending: PendingLogin): Promise<{ userId: string }>;
}

export const callbackPath = '/auth/callback';

/**
 * openid-client against the auth server. Discovery happens at the first sign-in
 * (and again after a failure), so the dashboard starts even while the auth
 * server is still starting. Plain http is allowed only for loopback issuers.
 */
export function createSignIn(config: DashboardConfig): SignIn {
  let discovered: Promise<oidc.Configuration> | null = null;
  const issuer = new URL(config.issuer);
  const insecure = issuer.protocol === 'http:';
  const discover = () => {
    discovered ??= oidc
      .discovery(issuer, config.clientId, undefined, oidc.ClientSecretBasic(config.clientSecret), insecure ? { execute: [oidc.allowInsecureRequests] } : undefined)
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };
  const redirectUri = new URL(callbackPath, config.publicUrl).href;

  return {
    async start(returnTo, options = {}) {
      const server = await discover();
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(server, {
        redirect_uri: redirectUri,
        scope: 'openid',
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...(options.loginHint === undefined ? {} : { login_hint: options.loginHint }),
        ...(options.invitation === undefined ? {} : { invitation: options.invitation }),
      });
      return { url: url.href, pending: { state, verifier, returnTo } };
    },
    async finish(callbackUrl, pending) {
      const server = await discover();
      const tokens = await oidc.authorizationCodeGrant(server, callbackUrl, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, idTokenExpected: true });
      const sub = tokens.claims()?.sub;
      if (typeof sub !== 'string' || sub === '') throw new Error('the ID token carries no subject');
      return { userId: sub };
    },
  };
}
