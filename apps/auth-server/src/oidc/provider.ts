import { findUser, isUnavailable, RETRY_AFTER_SECONDS, type DomainDeps, type OidcStorage } from '@cp/domain';
import Provider, { errors, type Configuration } from 'oidc-provider';
import { type AuthConfig, DASHBOARD_CLIENT_NAME, dashboardRedirectUri } from '../config.js';
import type { SigningKey } from '../keys/signing-keys.js';
import type { Logger } from '@cp/http-runtime';
import { messagePage } from '../pages/message-pages.js';
import { PAGE_SECURITY_HEADERS } from '../pages/layout.js';
import { type CimdDeps, createClientDocuments } from '../cimd/client-documents.js';
import { isUrlClientId } from '../cimd/client-id-url.js';
import { providerAdapter } from './adapter.js';
import { clientPolicyValidator, EXTRA_CLIENT_METADATA } from './client-policy.js';
import { defaultScope } from './default-scope.js';
import { interactionPolicyFor } from './interaction-policy.js';
import { providerTtl } from './lifetimes.js';
import { MCP_SCOPES, SUPPORTED_SCOPES } from './scopes.js';

export interface ProviderDeps {
  readonly config: AuthConfig;
  readonly signingKeys: readonly SigningKey[];
  readonly storage: OidcStorage;
  readonly domain: Pick<DomainDeps, 'repos'>;
  readonly log: Logger;
  /** Tests only: the document fetcher's resolver, CA and clock (README "Client ID Metadata Documents"). */
  readonly cimd?: CimdDeps;
}

/** Endpoint paths; `/authorize`, `/token` and `/register` are MCP's fallback defaults too. */
export const ROUTES = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  revocation: '/revoke',
  introspection: '/introspect',
  jwks: '/jwks',
} as const;

/**
 * oidc-provider's cookies. With secure cookies (production), `__Host-`: the browser
 * accepts them only when Secure, Path=/ and without Domain, so no other host (a
 * sibling subdomain) and no plain-http page can plant or overwrite them. The resume
 * cookie is `__Secure-` instead: oidc-provider scopes it to its resume URL
 * (`/authorize/<uid>`), and `__Host-` requires Path=/ (README "Pages, sessions and consent").
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

/** For a client metadata document, where its redirect URIs come from (oidc-provider's message speaks of registration). */
const documentRedirectHint = (clientId: unknown, error: string): string | undefined =>
  error === 'invalid_redirect_uri' && typeof clientId === 'string' && isUrlClientId(clientId)
    ? `redirect_uri is not one of the redirect_uris listed in the client metadata document at ${clientId}; list it there, or use one that is listed`
    : undefined;

const sameResource = (a: string, b: string): boolean => URL.parse(a)?.href === URL.parse(b)?.href;

export function createProvider(deps: ProviderDeps): Provider {
  const { config } = deps;
  const resource = config.mcpResourceUrl;
  const cookie = sessionCookieOptions(config);

  const dashboard = config.dashboard;
  const isFirstParty = (clientId: string | undefined): boolean => dashboard !== null && clientId === dashboard.clientId;

  // Documents are checked as oidc-provider checks any client's metadata, once the provider exists.
  const built: { provider?: Provider } = {};
  const documents = createClientDocuments({
    ...deps.cimd,
    config: config.cimd,
    log: deps.log,
    validate: async (metadata) => built.provider?.Client.validate(metadata),
  });

  const configuration: Configuration = {
    adapter: providerAdapter(deps.storage, documents),
    // The dashboard is configured, not registered: confidential, first-party, OpenID only.
    clients:
      dashboard === null
        ? []
        : [
            {
              client_id: dashboard.clientId,
              client_secret: dashboard.clientSecret,
              client_name: DASHBOARD_CLIENT_NAME,
              redirect_uris: [dashboardRedirectUri(dashboard)],
              grant_types: ['authorization_code'],
              response_types: ['code'],
              token_endpoint_auth_method: 'client_secret_basic',
              scope: 'openid',
            },
          ],
    /*
     * The default (the grant from this interaction's consent or this session), plus:
     * the first-party dashboard gets its grant (OpenID scope only) without a consent
     * page. Connected applications never list it (account-routes: firstPartyClientIds).
     */
    async loadExistingGrant(ctx) {
      const clientId = ctx.oidc.client?.clientId;
      const grantId = ctx.oidc.result?.consent?.grantId ?? (clientId === undefined ? undefined : ctx.oidc.session?.grantIdFor(clientId));
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const accountId = ctx.oidc.session?.accountId;
      if (!isFirstParty(clientId) || accountId === undefined) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid');
      await grant.save();
      return grant;
    },
    jwks: { keys: deps.signingKeys.map((key) => ({ ...key })) },
    cookies: { keys: [...config.cookieKeys], names: cookieNames(config), long: cookie, short: cookie },
    async findAccount(_ctx, sub) {
      const user = await findUser({ userId: sub }, deps.domain);
      return user === null ? undefined : { accountId: user.id, claims: () => ({ sub: user.id }) };
    },
    claims: { openid: ['sub'] },
    scopes: [...SUPPORTED_SCOPES],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    extraClientMetadata: {
      properties: EXTRA_CLIENT_METADATA,
      validator: (ctx, key, value, metadata) => clientPolicyValidator(ctx, key, value, metadata),
    },
    routes: ROUTES,
    // The MCP SDK (and the draft) look for this in the RFC 8414 metadata; both metadata paths serve this document.
    discovery: { client_id_metadata_document_supported: true },
    ttl: providerTtl(config.lifetimes),
    // Every client registered with the refresh_token grant gets one, without offline_access (docs/decisions/0003-jwt-access-tokens-with-a-grant-check.md).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Always rotate; a rotated token presented again revokes the whole grant (README "Tokens").
    rotateRefreshToken: true,
    // Signing out of the browser must not disconnect the applications the user connected.
    expiresWithSession: async () => false,
    async extraTokenClaims(_ctx, token) {
      // The MCP server checks that this grant still exists (revocation within 30 s).
      return token.kind === 'AccessToken' ? { grantId: token.grantId } : undefined;
    },
    // The dashboard's invitation page sends its token, so the sign-in and sign-up pages can carry it (README "Throttling").
    extraParams: ['invitation'],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // Not used by MCP clients; off keeps the surface small (the MCP server does not check DPoP proofs).
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // No `resource` means the MCP server; at the token endpoint the granted one is used.
        // The dashboard signs people in and calls no resource server: no default for it.
        defaultResource: async (_ctx, client, oneOf) => oneOf ?? (isFirstParty(client.clientId) ? undefined : resource),
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (!sameResource(indicator, resource)) {
            throw new errors.InvalidTarget(`the only resource served here is ${resource}`);
          }
          return {
            scope: MCP_SCOPES.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    interactions: { policy: interactionPolicyFor(isFirstParty), url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async renderError(ctx, out, error) {
      ctx.type = 'html';
      for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) ctx.set(name, value);
      if (databaseUnavailable(error)) {
        ctx.body = messagePage({ title: 'Temporarily unavailable', message: error.message });
        return;
      }
      ctx.body = messagePage({
        title: 'This sign-in request cannot continue',
        message: `${documentRedirectHint(ctx.oidc?.params?.client_id, out.error) ?? out.error_description ?? out.error}. Start again from the application you were connecting (${out.error}).`,
      });
    },
  };

  const provider = new Provider(config.issuer, configuration);
  built.provider = provider;
  provider.proxy = config.trustProxy !== false;
  provider.use(defaultScope(provider, ROUTES.authorization));
  // oidc-provider answers its routes' failures itself (500, server_error): a database
  // that is down is marked here and answered 503 with OAuth's temporarily_unavailable.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.state.databaseUnavailable !== true) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    if (!ctx.response.is('html')) ctx.body = { error: 'temporarily_unavailable', error_description: 'The database is unavailable; retry in a few seconds.' };
  });
  provider.on('server_error', (ctx: { state: Record<string, unknown> }, error: Error) => {
    if (databaseUnavailable(error)) {
      ctx.state.databaseUnavailable = true;
      deps.log.warn({ err: error }, 'oidc-provider: database unavailable');
      return;
    }
    deps.log.error({ err: error }, 'oidc-provider server error');
  });
  provider.on('grant.revoked', (_ctx: unknown, grantId: string) => deps.log.info({ grantId }, 'grant revoked'));
  return provider;
}

const databaseUnavailable = isUnavailable;
