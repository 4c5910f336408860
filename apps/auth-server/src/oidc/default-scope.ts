import type { KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { MCP_SCOPES } from './scopes.js';

/**
 * RFC 6749 §3.3: an authorization request without `scope` gets a default. Here it
 * is the MCP scopes the client registered, or both MCP scopes when it registered
 * none; the consent page lists them before the user allows anything.
 */
export function defaultScope(provider: Provider, authorizationPath: string) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    if (ctx.method === 'GET' && ctx.path === authorizationPath && ctx.query.scope === undefined && typeof ctx.query.client_id === 'string') {
      const client = await provider.Client.find(ctx.query.client_id).catch(() => undefined);
      const registered = (client?.scope ?? '').split(' ').filter((scope) => (MCP_SCOPES as readonly string[]).includes(scope));
      ctx.query = { ...ctx.query, scope: (registered.length > 0 ? registered : MCP_SCOPES).join(' ') };
    }
    await next();
  };
}
