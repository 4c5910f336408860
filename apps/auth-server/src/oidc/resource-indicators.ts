import { errors, type Configuration } from 'oidc-provider';
import { MCP_SCOPES } from './scopes.js';

type ResourceIndicators = NonNullable<NonNullable<Configuration['features']>['resourceIndicators']>;

const sameResource = (a: string, b: string): boolean => URL.parse(a)?.href === URL.parse(b)?.href;

/** One resource server, the MCP server: its access tokens are JWTs with the MCP scopes. */
export const resourceIndicators = (
  resource: string,
  isFirstParty: (clientId: string | undefined) => boolean,
): ResourceIndicators => ({
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
});
