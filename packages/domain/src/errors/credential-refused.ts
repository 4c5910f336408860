/**
 * A credential exchange refused (an API token or a CI token at the token endpoint): the auth server
 * answers `400 invalid_grant` with `message` as `error_description`. Never a DomainError: no HTTP
 * status of the domain's table applies, and the message never holds the presented secret.
 */
export class CredentialRefused extends Error {
  override readonly name = 'CredentialRefused';
  readonly error = 'invalid_grant';

  constructor(
    message: string,
    /** The CI claim that failed (`repository_id`, `jti`, …), or null for an API token or the policy's creator. */
    readonly claim: string | null = null,
  ) {
    super(message);
  }
}

export const isCredentialRefused = (error: unknown): error is CredentialRefused => error instanceof CredentialRefused;
