import { errors } from 'oidc-provider';
import { CLI_CLIENT_ID, DEVICE_CODE_GRANT, TOKEN_EXCHANGE_GRANT } from './cli-client.js';
import { SUPPORTED_SCOPES } from './scopes.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

type RedirectKind = 'loopback' | 'app-scheme' | 'https';

/**
 * RFC 8252 native-app redirects are loopback http (any port) and an app's own
 * scheme; web redirects must be https. Throws (as `invalid_redirect_uri`) for
 * dangerous schemes and for plain http anywhere but loopback. Fragments and
 * unparseable URIs are refused by oidc-provider itself.
 */
function classify(uri: string): RedirectKind | null {
  const url = URL.parse(uri);
  if (url === null) return null;
  if (FORBIDDEN_SCHEMES.has(url.protocol)) {
    throw new errors.InvalidClientMetadata(`redirect_uris must not use the ${url.protocol.slice(0, -1)} scheme`);
  }
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return 'loopback';
    throw new errors.InvalidClientMetadata('redirect_uris must use https, except for loopback addresses (localhost, 127.0.0.1, [::1])');
  }
  return url.protocol === 'https:' ? 'https' : 'app-scheme';
}

/** Grants only our own CLI may use: a device login shows our pages and signs in to this server. */
const CLI_ONLY_GRANT_TYPES: readonly string[] = [DEVICE_CODE_GRANT, TOKEN_EXCHANGE_GRANT];

/**
 * Why a client other than `cpc` may not have these grant types, or null when it asks for
 * none of them. A third party with the device grant could start a device login that shows
 * our sign-in page for its own client (device-code phishing through our server).
 */
export function cliOnlyGrantRefusal(clientId: unknown, grantTypes: unknown): string | null {
  if (clientId === CLI_CLIENT_ID || !Array.isArray(grantTypes)) return null;
  const asked = grantTypes.filter((grant): grant is string => typeof grant === 'string' && CLI_ONLY_GRANT_TYPES.includes(grant));
  if (asked.length === 0) return null;
  return `grant_types ${asked.join(' and ')} ${asked.length > 1 ? 'are' : 'is'} reserved for the platform's own command line (client_id ${CLI_CLIENT_ID}); other clients use authorization_code (with refresh_token)`;
}

/**
 * Client metadata rules applied whenever oidc-provider builds a client (at
 * registration and when loading one): it runs as the `extraClientMetadata`
 * validator, the only hook that sees the metadata before oidc-provider checks it.
 *
 * - A client with a loopback or app-scheme redirect becomes `application_type:
 *   native`, whatever it declared: real MCP clients (Claude Code, Cursor, VS Code)
 *   register without it, and only native clients get RFC 8252's "any loopback
 *   port" matching and may use an app scheme.
 * - Only `cpc` may have the device_code and token-exchange grants (cliOnlyGrantRefusal).
 * - Registered `scope` keeps only the scopes this server knows (RFC 7591 lets the
 *   server replace what it does not support); nothing known left means no limit
 *   beyond what each authorization request asks for.
 */
export function applyClientPolicy(metadata: Record<string, unknown>): void {
  const reserved = cliOnlyGrantRefusal(metadata.client_id, metadata.grant_types);
  if (reserved !== null) throw new errors.InvalidClientMetadata(reserved);

  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.filter((uri) => typeof uri === 'string') : [];
  const kinds = uris.map(classify);
  if (kinds.includes('loopback') || kinds.includes('app-scheme')) metadata.application_type = 'native';

  if (typeof metadata.scope === 'string') {
    const known = metadata.scope.split(' ').filter((scope) => SUPPORTED_SCOPES.includes(scope));
    if (known.length > 0) metadata.scope = [...new Set(known)].join(' ');
    else delete metadata.scope;
  }
}

/** RFC 7591 metadata oidc-provider does not know; kept so the hook below runs for every client. */
export const EXTRA_CLIENT_METADATA = ['software_id', 'software_version'];

export const clientPolicyValidator = (_ctx: unknown, key: string, _value: unknown, metadata: Record<string, unknown>): void => {
  // Called once per extra property; the policy needs to run only once per client.
  if (key === EXTRA_CLIENT_METADATA[0]) applyClientPolicy(metadata);
};
