import type { Grant, KoaContextWithOIDC } from 'oidc-provider';
import { CLI_CLIENT_ID } from './cli-client.js';

/** The routes of a device login in the browser: the code entry form, and its return from sign-in and consent. */
const DEVICE_ROUTES = new Set(['code_verification', 'device_resume']);

export const isDeviceLogin = (ctx: KoaContextWithOIDC): boolean =>
  ctx.oidc.client?.clientId === CLI_CLIENT_ID && DEVICE_ROUTES.has(String(ctx.oidc.route));

/**
 * The grant of a device login: every confirmation makes a grant of its own (one device,
 * one row in /account, revoked alone), never the browser session's earlier one.
 *
 * - Confirmed on the code page while signed in: that page showed the device's name, the
 *   account and the scopes, so the confirmation is the consent: a grant of the requested
 *   scopes on the MCP resource, and no consent page.
 * - Back from sign-in (the person was not signed in at the confirmation): no grant yet, so
 *   oidc-provider asks for consent, on the same confirmation page (interaction-routes).
 * - Back from that consent: the grant it saved.
 */
export async function deviceLoginGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { provider } = ctx.oidc;
  if (ctx.oidc.route === 'device_resume') {
    const grantId = ctx.oidc.result?.consent?.grantId;
    return grantId === undefined ? undefined : provider.Grant.find(grantId);
  }
  const accountId = ctx.oidc.session?.accountId;
  if (accountId === undefined) return undefined;
  const grant = new provider.Grant({ clientId: CLI_CLIENT_ID, accountId });
  const scope = ctx.oidc.params?.scope;
  const requested = new Set(typeof scope === 'string' ? scope.split(' ') : []);
  const granted = new Set<string>();
  for (const [indicator, server] of Object.entries(ctx.oidc.resourceServers ?? {})) {
    const scopes = String(server.scope ?? '')
      .split(' ')
      .filter((scope) => requested.has(scope));
    scopes.forEach((scope) => granted.add(scope));
    if (scopes.length > 0) grant.addResourceScope(indicator, scopes.join(' '));
  }
  // oidc-provider also checks the request's scopes among its configured ones (the MCP scopes are), as saveConsent grants them.
  if (granted.size > 0) grant.addOIDCScope([...granted].join(' '));
  await grant.save();
  return grant;
}
