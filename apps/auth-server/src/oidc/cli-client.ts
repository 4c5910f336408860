import { CLI_CLIENT_ID, CLI_CLIENT_NAME } from '@cp/domain';
import type { ClientMetadata } from 'oidc-provider';
import { MCP_SCOPES } from './scopes.js';

/** The `cpc` command line's client_id (docs/cli-and-ci.md, "The CLI's OAuth client"). */
export { CLI_CLIENT_ID };

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

/**
 * The CLI is configured, not registered: a first-party public client (no secret, no
 * redirect URI), with the MCP scopes only. It signs in with the device flow and
 * refreshes its tokens. TOKEN_EXCHANGE_GRANT joins `grant_types` together with its
 * handler (provider.registerGrantType, after the provider is built): oidc-provider
 * refuses a client whose grant type it does not know, when the client is first loaded.
 */
export const cliClient = (): ClientMetadata => ({
  client_id: CLI_CLIENT_ID,
  client_name: CLI_CLIENT_NAME,
  token_endpoint_auth_method: 'none',
  grant_types: [DEVICE_CODE_GRANT, 'refresh_token'],
  response_types: [],
  redirect_uris: [],
  scope: MCP_SCOPES.join(' '),
});
