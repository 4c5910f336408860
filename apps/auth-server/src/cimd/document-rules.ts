import { cliOnlyGrantRefusal } from '../oidc/client-policy.js';
import { CimdRefusal } from './refusal.js';

/** What a client described by a document may use: the authorization code flow, as a public client. */
const ALLOWED_GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
const ALLOWED_RESPONSE_TYPES = new Set(['code']);

/**
 * The metadata taken from a document; everything else in it is ignored (logo and
 * policy URLs are not shown, keys are not used: only public clients are accepted).
 */
const KEPT_PROPERTIES = [
  'client_id',
  'client_name',
  'client_uri',
  'redirect_uris',
  'grant_types',
  'response_types',
  'token_endpoint_auth_method',
  'scope',
  'software_id',
  'software_version',
] as const;

export type DocumentMetadata = Record<string, unknown> & {
  readonly client_id: string;
  readonly redirect_uris: readonly string[];
};

/**
 * Parses and checks a fetched document (draft section 4 and 4.1): a JSON object whose
 * `client_id` is exactly the URL it was fetched from, with redirect URIs, no secret and
 * no shared-secret authentication. Only `none` is accepted: this server implements no
 * key-based client authentication, and an absent method means `none` here, since RFC
 * 7591's default (client_secret_basic) can never hold for a document. Grant and
 * response types are limited to the code flow with refresh. The redirect URIs' own
 * rules (https, or loopback / app scheme for native apps) are the registered clients'
 * ones, applied when oidc-provider builds the client (oidc/client-policy.ts).
 */
export function checkDocument(url: string, body: string): DocumentMetadata {
  const at = `the client metadata document at ${url}`;
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    throw new CimdRefusal(
      'malformed-json',
      `${at} is not valid JSON; serve the client metadata as a JSON object`,
    );
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new CimdRefusal(
      'not-an-object',
      `${at} is not a JSON object; serve the client metadata as a JSON object`,
    );
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== url) {
    throw new CimdRefusal(
      'client-id-mismatch',
      `${at} has a client_id that is not exactly its URL; set "client_id" to ${JSON.stringify(url)}, character for character`,
    );
  }
  const redirects = fields.redirect_uris;
  if (
    !Array.isArray(redirects) ||
    redirects.length === 0 ||
    !redirects.every((uri) => typeof uri === 'string')
  ) {
    throw new CimdRefusal(
      'no-redirect-uris',
      `${at} has no "redirect_uris"; list every redirect URI the client uses, as strings`,
    );
  }
  if ('client_secret' in fields || 'client_secret_expires_at' in fields) {
    throw new CimdRefusal(
      'client-secret',
      `${at} contains client_secret or client_secret_expires_at; a metadata document is public, so remove them (the client authenticates with PKCE)`,
    );
  }
  const method = fields.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw new CimdRefusal(
      'auth-method',
      `${at} declares token_endpoint_auth_method ${JSON.stringify(method)}; this server accepts only "none" (a public client using PKCE) for metadata documents`,
    );
  }
  const grants = listOrDefault(fields.grant_types, 'authorization_code');
  const reserved = cliOnlyGrantRefusal(url, grants);
  if (reserved !== null) {
    throw new CimdRefusal('cli-only-grant', `${at} is refused: ${reserved}`, 'invalid_client_metadata');
  }
  const badGrants = grants.filter(
    (grant) => typeof grant !== 'string' || !ALLOWED_GRANT_TYPES.has(grant),
  );
  if (badGrants.length > 0) {
    throw new CimdRefusal(
      'grant-types',
      `${at} asks for grant_types ${JSON.stringify(badGrants)}; clients identified by a metadata document may use only "authorization_code" and "refresh_token"`,
    );
  }
  const responses = listOrDefault(fields.response_types, 'code');
  if (responses.some((type) => typeof type !== 'string' || !ALLOWED_RESPONSE_TYPES.has(type))) {
    throw new CimdRefusal(
      'response-types',
      `${at} asks for response_types other than "code"; only "code" is supported`,
    );
  }
  const kept: Record<string, unknown> = {};
  for (const name of KEPT_PROPERTIES) if (fields[name] !== undefined) kept[name] = fields[name];
  return { ...kept, client_id: url, redirect_uris: redirects, token_endpoint_auth_method: 'none' };
}

const listOrDefault = (value: unknown, fallback: string): unknown[] =>
  value === undefined ? [fallback] : Array.isArray(value) ? value : [value];
