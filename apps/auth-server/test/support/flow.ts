import type { User } from '@cp/domain';
import { signUp } from '../../src/accounts/sign-up.js';
import type { FormBrowser, Page } from './form-browser.js';
import { TEST_PASSWORD_COST, type AuthHarness } from './harness.js';
import type { ScryptCost } from '../../src/accounts/passwords.js';
import { authorizeUrl, pkce, tokenRequest, type RegisteredClient } from './oauth-client.js';

let counter = 0;
export const PASSWORD = 'correct horse battery staple';

/** A user with a password, created the way /signup creates one (at the tests' cost unless given one). */
export async function aUser(
  auth: Pick<AuthHarness, 'domain' | 'credentials'>,
  email = `user${++counter}-${Date.now()}@example.com`,
  passwordCost: ScryptCost = TEST_PASSWORD_COST,
): Promise<User> {
  return signUp({ email, password: PASSWORD }, { domain: auth.domain, passwordCost });
}

/** Signs in on the interaction page and answers the consent page; returns the page the browser left on. */
export async function signInAndConsent(browser: FormBrowser, start: string, user: { email: string }, decision: 'allow' | 'deny' = 'allow'): Promise<Page> {
  let page = await browser.open(start);
  if (/\/login"/.test(page.html)) page = await browser.submit(page, { email: user.email, password: PASSWORD }, { action: /\/login$/ });
  if (/name="decision"/.test(page.html)) page = await browser.submit(page, { decision });
  return page;
}

export interface CodeFlow {
  readonly verifier: string;
  readonly redirectUri: string;
  /** Where the browser was sent back to (the client's redirect URI with code, state and iss). */
  readonly callback: URL;
}

/** The authorization request up to the redirect back to the client. */
export async function authorizeCode(
  browser: FormBrowser,
  auth: Pick<AuthHarness, 'issuer' | 'config'>,
  client: RegisteredClient,
  user: { email: string },
  params: Record<string, string | undefined> = {},
): Promise<CodeFlow> {
  const { verifier, challenge } = pkce();
  const redirectUri = params.redirect_uri ?? client.redirect_uris[0]!;
  const page = await signInAndConsent(
    browser,
    authorizeUrl(auth.issuer, {
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'mcp:read mcp:write',
      state: 'st4te',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: auth.config.mcpResourceUrl,
      ...params,
    }),
    user,
  );
  return { verifier, redirectUri, callback: new URL(page.url) };
}

/** Authorization code to tokens. */
export async function exchange(auth: Pick<AuthHarness, 'issuer'>, client: RegisteredClient, flow: CodeFlow, extra: Record<string, string> = {}) {
  return tokenRequest(auth.issuer, {
    grant_type: 'authorization_code',
    client_id: client.client_id,
    code: flow.callback.searchParams.get('code') ?? '',
    redirect_uri: flow.redirectUri,
    code_verifier: flow.verifier,
    ...extra,
  });
}
