import { type ActingCredential, findUser, type DomainDeps, type OidcStorage } from '@cp/domain';
import Provider, { type ClientMetadata, type Configuration } from 'oidc-provider';
import { type AuthConfig, type DashboardClient, DASHBOARD_CLIENT_NAME, dashboardRedirectUri } from '../config.js';
import type { SigningKey } from '../keys/signing-keys.js';
import type { Logger } from '@cp/http-runtime';
import { type CimdDeps, createClientDocuments } from '../cimd/client-documents.js';
import { createCiTokenVerifier } from '../ci/verify-ci-token.js';
import { registerTokenExchange } from '../exchange/token-exchange-grant.js';
import type { DevicePolls } from '../security/device-polls.js';
import { providerAdapter } from './adapter.js';
import { CLI_CLIENT_ID, cliClient, TOKEN_EXCHANGE_GRANT } from './cli-client.js';
import { clientPolicyValidator, EXTRA_CLIENT_METADATA } from './client-policy.js';
import { cookieNames, sessionCookieOptions } from './cookies.js';
import { defaultScope } from './default-scope.js';
import { deviceLoginGrant, isDeviceLogin } from './device-consent.js';
import { checkDeviceName, CODE_ENTRY_PATH, defaultDeviceScope, DEVICE_AUTHORIZATION_PATH, deviceEndpoints, deviceFlowFeature } from './device-flow.js';
import { interactionPolicyFor } from './interaction-policy.js';
import { providerTtl } from './lifetimes.js';
import { answerOutages, renderError } from './provider-errors.js';
import { resourceIndicators } from './resource-indicators.js';
import { SUPPORTED_SCOPES } from './scopes.js';

export interface ProviderDeps {
  readonly config: AuthConfig;
  readonly signingKeys: readonly SigningKey[];
  readonly storage: OidcStorage;
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly log: Logger;
  /** Device codes' polling pace (slow_down), shared by every instance with Redis. */
  readonly devicePolls: DevicePolls;
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
  device_authorization: DEVICE_AUTHORIZATION_PATH,
  code_verification: CODE_ENTRY_PATH,
} as const;

/** The dashboard: confidential, first-party, OpenID only. */
const dashboardClient = (dashboard: DashboardClient): ClientMetadata => ({
  client_id: dashboard.clientId,
  client_secret: dashboard.clientSecret,
  client_name: DASHBOARD_CLIENT_NAME,
  redirect_uris: [dashboardRedirectUri(dashboard)],
  grant_types: ['authorization_code'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
  scope: 'openid',
});

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

  // The credential behind each exchanged access token, for its `cp_credential` claim (token-exchange-grant.ts).
  const exchangedCredentials = new WeakMap<object, ActingCredential>();

  const configuration: Configuration = {
    adapter: providerAdapter({
      storage: deps.storage,
      documents,
      devicePolls: deps.devicePolls,
      // As long again as a code lives: long enough for a CLI to hear expired_token, then purged.
      expiredDeviceCodeSeconds: config.deviceFlow.codeLifetimeSeconds,
    }),
    /*
     * Configured, not registered: the CLI (public, first-party, device flow; always
     * present) and the dashboard (confidential, first-party, OpenID only).
     */
    clients: [
      // Its token exchange is registered below (registerTokenExchange), before the client is first loaded.
      { ...cliClient(), grant_types: [...(cliClient().grant_types ?? []), TOKEN_EXCHANGE_GRANT] },
      ...(dashboard === null ? [] : [dashboardClient(dashboard)]),
    ],
    /*
     * The default (the grant from this interaction's consent or this session), plus:
     * the first-party dashboard gets its grant (OpenID scope only) without a consent
     * page. Connected applications never list it (account-routes: firstPartyClientIds).
     * A device login of the CLI gets a grant of its own (device-consent.ts).
     */
    async loadExistingGrant(ctx) {
      if (isDeviceLogin(ctx)) return deviceLoginGrant(ctx);
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
    ttl: { ...providerTtl(config.lifetimes), DeviceCode: config.deviceFlow.codeLifetimeSeconds },
    // Every client registered with the refresh_token grant gets one, without offline_access (docs/decisions/0003-jwt-access-tokens-with-a-grant-check.md).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Always rotate; a rotated token presented again revokes the whole grant (README "Tokens").
    rotateRefreshToken: true,
    // Signing out of the browser must not disconnect the applications the user connected.
    expiresWithSession: async () => false,
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken') return undefined;
      // The MCP server checks that this grant still exists (revocation within 30 s); an exchanged token also says which credential it acts with.
      const credential = exchangedCredentials.get(token);
      return { grantId: token.grantId, ...(credential === undefined ? {} : { cp_credential: { scope: credential.scope, via: credential.via } }) };
    },
    extraParams: {
      // The dashboard's invitation page sends its token, so the sign-in and sign-up pages can carry it (README "Throttling").
      invitation: null,
      // The CLI's device login names the device ("cpc on <hostname>"), shown on the confirmation page.
      device_name: checkDeviceName,
      scope: defaultDeviceScope,
    },
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
      resourceIndicators: resourceIndicators(resource, isFirstParty),
      deviceFlow: deviceFlowFeature({ domain: deps.domain }),
    },
    interactions: { policy: interactionPolicyFor(isFirstParty), url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError,
  };

  const provider = new Provider(config.issuer, configuration);
  built.provider = provider;
  provider.proxy = config.trustProxy !== false;
  provider.use(defaultScope(provider, ROUTES.authorization));
  provider.use(deviceEndpoints(config.deviceFlow));
  answerOutages(provider, deps.log);
  registerTokenExchange(provider, {
    clientId: CLI_CLIENT_ID,
    resource,
    config: config.exchange,
    verifyCiToken: createCiTokenVerifier({ issuers: config.exchange.ciIssuers, audience: config.issuer, config: config.exchange }),
    domain: deps.domain,
    log: deps.log,
    credentials: exchangedCredentials,
  });
  provider.on('grant.revoked', (_ctx: unknown, grantId: string) => deps.log.info({ grantId }, 'grant revoked'));
  return provider;
}
