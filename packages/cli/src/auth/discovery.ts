import { CliError, ExitCode } from '../cli/errors.js';
import { getJson, stringField } from './http.js';

export interface AuthServer {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly deviceAuthorizationEndpoint: string;
  readonly revocationEndpoint: string | undefined;
}

/** The well-known URL of `suffix` for a URL with a path (RFC 8414 and RFC 9728 insert it before the path). */
const wellKnown = (url: string, suffix: string): string => {
  const parsed = new URL(url);
  const path = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '');
  return `${parsed.origin}/.well-known/${suffix}${path}`;
};

/** The auth server of an MCP server, from its protected-resource metadata, then the server's own metadata. */
export async function discoverAuthServer(fetchFn: typeof fetch, mcpUrl: string): Promise<AuthServer> {
  let resourceUrl: string;
  try {
    resourceUrl = wellKnown(mcpUrl, 'oauth-protected-resource');
  } catch {
    throw new CliError('USAGE', `The server "${mcpUrl}" is not a URL; pass the MCP URL, for example http://localhost:4100/mcp.`, ExitCode.Usage);
  }
  const resource = await getJson(fetchFn, resourceUrl, 'the MCP server');
  const servers = resource.json.authorization_servers;
  const issuer = Array.isArray(servers) && typeof servers[0] === 'string' ? servers[0] : undefined;
  if (resource.status !== 200 || issuer === undefined) {
    throw new CliError('NOT_AN_MCP_SERVER', `${mcpUrl} published no protected-resource metadata (HTTP ${resource.status}); is it the MCP URL?`, ExitCode.Failure);
  }
  const metadata = await getJson(fetchFn, wellKnown(issuer, 'oauth-authorization-server'), 'the auth server');
  const tokenEndpoint = stringField(metadata.json, 'token_endpoint');
  if (metadata.status !== 200 || tokenEndpoint === undefined) {
    throw new CliError('AUTH_SERVER_UNAVAILABLE', `The auth server ${issuer} published no metadata (HTTP ${metadata.status}).`, ExitCode.Failure);
  }
  return {
    issuer: stringField(metadata.json, 'issuer') ?? issuer,
    tokenEndpoint,
    // The contract's path, for a server whose metadata leaves it out.
    deviceAuthorizationEndpoint: stringField(metadata.json, 'device_authorization_endpoint') ?? `${issuer.replace(/\/$/, '')}/device/auth`,
    revocationEndpoint: stringField(metadata.json, 'revocation_endpoint'),
  };
}
