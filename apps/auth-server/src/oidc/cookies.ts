import type { AuthConfig } from '../config.js';

/**
 * oidc-provider's cookies. With secure cookies (production), `__Host-`: the browser
 * accepts them only when Secure, Path=/ and without Domain, so no other host (a
 * sibling subdomain) and no plain-http page can plant or overwrite them. The resume
 * cookie is `__Secure-` instead: oidc-provider scopes it to its resume URL
 * (`/authorize/<uid>`, or `/device/<uid>` for a device login), and `__Host-` requires Path=/ (README "Pages, sessions and consent").
 */
export const cookieNames = (config: Pick<AuthConfig, 'secureCookies'>) =>
  config.secureCookies
    ? { session: '__Host-cp_session', interaction: '__Host-cp_interaction', resume: '__Secure-cp_interaction_resume' }
    : { session: 'cp_session', interaction: 'cp_interaction', resume: 'cp_interaction_resume' };

/**
 * Cookie options shared by oidc-provider and the pages that sign people in and out.
 * oidc-provider applies them after its own path for the interaction cookie, so
 * Path=/ holds there too, which `__Host-` requires.
 */
export const sessionCookieOptions = (config: AuthConfig) =>
  ({ httpOnly: true, sameSite: 'lax', secure: config.secureCookies, signed: true, path: '/' }) as const;
