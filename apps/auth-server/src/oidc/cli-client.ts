import type { ClientMetadata } from 'oidc-provider';
import { TOKEN_EXCHANGE_GRANT } from '../exchange/token-types.js';

/** The `cpc` command line: a configured, first-party, public client (docs/cli-and-ci.md "The CLI's OAuth client"). */
export const CLI_CLIENT_ID = 'cpc';

export const cliClient = (): ClientMetadata => ({
  client_id: CLI_CLIENT_ID,
  client_name: 'cpc',
  token_endpoint_auth_method: 'none',
  grant_types: [TOKEN_EXCHANGE_GRANT],
  response_types: [],
  redirect_uris: [],
  scope: 'mcp:read mcp:write',
});
