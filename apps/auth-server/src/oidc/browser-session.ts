import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AuthConfig } from '../config.js';
import { sessionCookieOptions } from './cookies.js';

/**
 * The browser's sign-in is oidc-provider's own session (one cookie), so signing in
 * on an authorization page also signs in to /account, and signing out ends both.
 * Outside an authorization request oidc-provider offers no sign-in call; this
 * uses its public `Session` model and the cookie options it was configured with.
 */
export interface BrowserSessions {
  accountId(req: IncomingMessage, res: ServerResponse): Promise<string | undefined>;
  signIn(req: IncomingMessage, res: ServerResponse, accountId: string): Promise<void>;
  signOut(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createBrowserSessions(provider: Provider, config: AuthConfig): BrowserSessions {
  const cookieName = provider.cookieName('session');
  const cookie = sessionCookieOptions(config);
  const load = async (req: IncomingMessage, res: ServerResponse) => {
    const ctx = provider.createContext(req, res);
    return { ctx, session: await provider.Session.get(ctx) };
  };

  return {
    async accountId(req, res) {
      return (await load(req, res)).session.accountId;
    },
    async signIn(req, res, accountId) {
      const { ctx, session: existing } = await load(req, res);
      // A new session id on every sign-in (no fixation); another account's session is ended.
      await existing.destroy();
      const session = new provider.Session();
      session.loginAccount({ accountId, amr: ['pwd'] });
      await session.save(config.lifetimes.session);
      ctx.cookies.set(cookieName, session.jti, { ...cookie, expires: new Date(session.exp * 1000) });
    },
    async signOut(req, res) {
      const { ctx, session } = await load(req, res);
      await session.destroy();
      ctx.cookies.set(cookieName, null, cookie);
    },
  };
}
