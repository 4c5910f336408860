import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Lifetimes } from '../config.js';

/**
 * Tokens never outlive their grant: the MCP server refuses a token whose grant is
 * gone, so a longer `exp` would only mislead the client.
 */
function cappedByGrant(ctx: KoaContextWithOIDC | undefined, seconds: number): number {
  const grantExpiry = ctx?.oidc?.entities.Grant?.exp;
  if (typeof grantExpiry !== 'number') return seconds;
  const remaining = grantExpiry - Math.floor(Date.now() / 1000);
  return Math.max(1, Math.min(seconds, remaining));
}

export function providerTtl(lifetimes: Lifetimes) {
  return {
    AccessToken: (ctx: KoaContextWithOIDC) => cappedByGrant(ctx, lifetimes.accessToken),
    RefreshToken: (ctx: KoaContextWithOIDC) => cappedByGrant(ctx, lifetimes.refreshToken),
    AuthorizationCode: lifetimes.authorizationCode,
    Grant: lifetimes.grant,
    IdToken: 60 * 60,
    Interaction: lifetimes.interaction,
    Session: lifetimes.session,
  };
}
