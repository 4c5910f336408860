/**
 * Why a client metadata document was not accepted. `reason` is a short fixed code for
 * logs and metrics; `description` is what the client's developer reads (the OAuth
 * `error_description`): what was wrong and what to do. Neither ever carries the
 * document's content beyond the values named. `error` is the OAuth error code: a client
 * that cannot be loaded is `invalid_client`; metadata asking for a grant reserved to our
 * CLI is `invalid_client_metadata`, as at registration (oidc/client-policy.ts).
 */
export class CimdRefusal extends Error {
  constructor(
    readonly reason: CimdRefusalReason,
    readonly description: string,
    readonly error: 'invalid_client' | 'invalid_client_metadata' = 'invalid_client',
  ) {
    super(description);
    this.name = 'CimdRefusal';
  }
}

export type CimdRefusalReason =
  | 'bad-url'
  | 'http-url'
  | 'dns-failed'
  | 'address-refused'
  | 'connect-failed'
  | 'timeout'
  | 'redirect'
  | 'status'
  | 'content-type'
  | 'too-large'
  | 'malformed-json'
  | 'not-an-object'
  | 'client-id-mismatch'
  | 'no-redirect-uris'
  | 'client-secret'
  | 'auth-method'
  | 'grant-types'
  | 'cli-only-grant'
  | 'response-types'
  | 'invalid-metadata';
