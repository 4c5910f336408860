import type { ActingCredential, DomainDeps } from '@cp/domain';
import type { Logger } from '@cp/http-runtime';
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC, type TokenEndpointGrantContext } from 'oidc-provider';
import { CiIssuerUnavailable, ExchangeRefusal } from '../ci/refusals.js';
import type { CiTokenVerifier } from '../ci/verify-ci-token.js';
import type { ExchangeConfig } from '../config.js';
import { apiTokenHolder } from './api-token-holder.js';
import { ciTokenHolder } from './ci-token-holder.js';
import { type CredentialHolder, credentialGrant, scopeOf } from './credential-grant.js';
import { ACCESS_TOKEN_TYPE, SubjectTokenType, TOKEN_EXCHANGE_GRANT, TOKEN_EXCHANGE_PARAMETERS } from './token-types.js';

/** How long a client waits before retrying while a CI issuer cannot be reached. */
const ISSUER_RETRY_SECONDS = 30;

export interface TokenExchangeDeps {
  readonly clientId: string;
  /** The MCP resource: the only `resource`, and the access token's `aud`. */
  readonly resource: string;
  readonly config: Pick<ExchangeConfig, 'accessTokenSeconds' | 'clockToleranceSeconds'>;
  readonly verifyCiToken: CiTokenVerifier;
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly log: Logger;
  /** Where the access token's `cp_credential` claim is found (provider.ts `extraTokenClaims`). */
  readonly credentials: WeakMap<object, ActingCredential>;
}

type ExchangeParams = Partial<Record<(typeof TOKEN_EXCHANGE_PARAMETERS)[number], string>>;

/** oidc-provider's error for an outage, with the status oidc-provider's own classes cannot carry (they are all 400). */
class TemporarilyUnavailable extends errors.OIDCProviderError {
  constructor(description: string) {
    super(503, 'temporarily_unavailable');
    // oidc-provider shows only errors below 500 as they are; this one's description is for the client.
    Object.assign(this, { error_description: description, expose: true });
  }
}

/** RFC 6749 §5.2: an error_description is printable ASCII without `"` and `\`. */
const describable = (text: string): string => text.replace(/[^\x20-\x7e]|["\\]/g, '?');

/** invalid_grant with our description (oidc-provider's own class always says "grant request is invalid"). */
class RefusedGrant extends errors.InvalidGrant {
  constructor(description: string) {
    super();
    Object.assign(this, { error_description: description });
  }
}

const sameResource = (a: string, b: string): boolean => URL.parse(a)?.href === URL.parse(b)?.href;

/**
 * RFC 8693 token exchange for the `cpc` client (docs/cli-and-ci.md "The exchange"): a CI OIDC token
 * or an API token becomes an access token for the MCP resource, under the credential's one grant, for
 * at most `accessTokenSeconds` (and never beyond an API token's expiry), without a refresh token. Every
 * refusal of the credential is `invalid_grant` naming the first claim that failed; a CI issuer that
 * cannot be reached is 503 `temporarily_unavailable`, and a database outage is answered by
 * provider-errors.ts like every other.
 */
export function registerTokenExchange(provider: Provider, deps: TokenExchangeDeps): void {
  const handler = async (ctx: TokenEndpointGrantContext<ExchangeParams>): Promise<void> => {
    const { client, params } = ctx.oidc;
    if (client.clientId !== deps.clientId) throw new errors.UnauthorizedClient('only the cpc command line may use token exchange');
    if (params.requested_token_type !== undefined && params.requested_token_type !== ACCESS_TOKEN_TYPE) {
      throw new errors.InvalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
    }
    if (params.resource !== undefined && !sameResource(params.resource, deps.resource)) {
      throw new errors.InvalidTarget(`the only resource served here is ${deps.resource}`);
    }
    const subjectToken = params.subject_token;
    if (subjectToken === undefined) throw new errors.InvalidRequest('subject_token is required');

    const holder = await answerRefusals(ctx, () => resolveHolder(params.subject_token_type, subjectToken, params.organization));
    const grant = await answerRefusals(ctx, () => credentialGrant(provider, holder, { clientId: client.clientId, resource: deps.resource }));

    const nowSeconds = Math.floor(deps.domain.clock.now().getTime() / 1000);
    const limits = [deps.config.accessTokenSeconds, (grant.exp ?? Infinity) - nowSeconds];
    if (holder.notAfter !== null) limits.push(Math.floor(holder.notAfter.getTime() / 1000) - nowSeconds);
    const expiresIn = Math.max(1, Math.min(...limits));

    const scope = scopeOf(holder.credential);
    const token = new provider.AccessToken({
      accountId: holder.userId,
      client,
      grantId: grant.jti,
      gty: TOKEN_EXCHANGE_GRANT,
      scope,
      expiresIn,
    });
    token.resourceServer = new provider.ResourceServer(deps.resource, {
      scope,
      audience: deps.resource,
      accessTokenFormat: 'jwt',
      jwt: { sign: { alg: 'ES256' } },
    });
    deps.credentials.set(token, holder.credential);
    ctx.oidc.entity('AccessToken', token);
    const accessToken = await token.save();
    deps.log.info({ via: holder.credential.via.via, grantId: grant.jti, userId: holder.userId }, 'token exchanged');

    ctx.body = { access_token: accessToken, issued_token_type: ACCESS_TOKEN_TYPE, token_type: 'Bearer', expires_in: expiresIn, scope };
  };

  const resolveHolder = async (type: string | undefined, subjectToken: string, organization: string | undefined): Promise<CredentialHolder> => {
    if (type === SubjectTokenType.IdToken) {
      return ciTokenHolder({ token: subjectToken, organizationId: organization }, { verify: deps.verifyCiToken, domain: deps.domain, config: deps.config });
    }
    if (type === SubjectTokenType.ApiToken) return apiTokenHolder({ secret: subjectToken }, { domain: deps.domain });
    throw new errors.InvalidRequest(`subject_token_type must be ${SubjectTokenType.IdToken} (a CI OIDC token) or ${SubjectTokenType.ApiToken} (an API token)`);
  };

  /** A refused credential is invalid_grant; an unreachable CI issuer 503. Anything else (a database outage) goes on to provider-errors.ts. */
  const answerRefusals = async <T>(ctx: TokenEndpointGrantContext<ExchangeParams>, step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      if (error instanceof ExchangeRefusal) {
        deps.log.info({ claim: error.claim }, 'token exchange refused');
        throw new RefusedGrant(describable(error.description));
      }
      if (error instanceof CiIssuerUnavailable) {
        deps.log.warn({ issuer: error.issuer, reason: error.reason }, 'CI issuer unavailable');
        ctx.set('Retry-After', String(ISSUER_RETRY_SECONDS));
        throw new TemporarilyUnavailable(describable(`${error.message}; retry in ${ISSUER_RETRY_SECONDS} seconds.`));
      }
      throw error;
    }
  };

  provider.registerGrantType(TOKEN_EXCHANGE_GRANT, handler, TOKEN_EXCHANGE_PARAMETERS);

  // oidc-provider refuses a client without this grant type as invalid_request; RFC 6749 §5.2 names it unauthorized_client.
  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    const clientId = oidc?.client?.clientId;
    if (ctx.status === 400 && body?.error === 'invalid_request' && oidc?.params?.grant_type === TOKEN_EXCHANGE_GRANT && clientId !== undefined && clientId !== deps.clientId) {
      ctx.body = { error: 'unauthorized_client', error_description: 'only the cpc command line may use token exchange' };
    }
  });
}
