import type { ResolveHost } from '../../src/cimd/checked-addresses.js';
import { pkce } from './oauth-client.js';

/** The redirect URI the test documents list (a native client's loopback callback). */
export const CALLBACK = 'http://127.0.0.1:33419/callback';

/** A valid document for `url`: what an MCP client would publish. */
export const aDocument = (
  url: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> => ({
  client_id: url,
  client_name: 'Document client',
  redirect_uris: [CALLBACK],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...overrides,
});

export interface AuthorizeAnswer {
  readonly status: number;
  /** Where the server sent the browser (an interaction page, or the client with an error). */
  readonly location: string | null;
  /** The error page's message, unescaped (null when not an error page). */
  readonly message: string | null;
}

const UNESCAPE: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** GET /authorize with a URL client_id, as a browser sent there by the client (no redirects followed). */
export async function authorize(
  issuer: string,
  clientId: string,
  params: Record<string, string> = {},
): Promise<AuthorizeAnswer> {
  const url = new URL(`${issuer}/authorize`);
  const { challenge } = pkce();
  const all = {
    client_id: clientId,
    response_type: 'code',
    redirect_uri: CALLBACK,
    scope: 'mcp:read',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) url.searchParams.set(name, value);
  const res = await fetch(url, { redirect: 'manual' });
  const html = await res.text();
  const paragraph = /<h1>This sign-in request cannot continue<\/h1>\s*<p>([^<]*)<\/p>/.exec(
    html,
  )?.[1];
  return {
    status: res.status,
    location: res.headers.get('location'),
    message:
      paragraph === undefined
        ? null
        : paragraph.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => UNESCAPE[entity]!),
  };
}

/** What the error page says after the description (renderError in src/oidc/provider-errors.ts). */
export const refusedWith = (description: string, error = 'invalid_client'): string =>
  `${description}. Start again from the application you were connecting (${error}).`;

/**
 * A resolver standing in for DNS: each name maps to the given addresses; any other name
 * does not resolve. It counts its calls, so a test can tell the fetch resolved once.
 */
export function fakeResolver(names: Record<string, string[]>): ResolveHost & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return (names[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(':') ? (6 as const) : (4 as const),
    }));
  };
  return Object.assign(resolve, { calls });
}
