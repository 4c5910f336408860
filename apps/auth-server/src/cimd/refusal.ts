/**
 * Why a client metadata document was not accepted. `reason` is a short fixed code for
 * logs and metrics; `description` is what the client's developer reads (the OAuth
 * `error_description`): what was wrong and what to do. Neither ever carries the
 * document's content beyond the values named.
 */
export class CimdRefusal extends Error {
  constructor(
    readonly reason: CimdRefusalReason,
    readonly description: string,
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
  | 'response-types'
  | 'invalid-metadata';
