import type { ActingCredential, ApiToken } from '../../entities/credential.js';
import { CredentialRefused } from '../../errors/credential-refused.js';
import type { DomainDeps } from '../../ports/deps.js';
import { API_TOKEN_LIMITS, apiTokenProblem, hashApiToken } from '../../rules/api-tokens.js';

export interface ExchangedApiToken {
  /** The token's creator: the access token's subject. */
  readonly userId: string;
  readonly credential: ActingCredential;
  readonly token: ApiToken;
  /** The latest the access token may expire: API_TOKEN_LIMITS.accessTokenSeconds from now, never beyond the token's expiry. */
  readonly expiresAt: Date;
}

/**
 * An API token presented at the token endpoint, checked: its format and checksum (before any lookup),
 * then that it is known, not revoked, not expired, and that its creator is still a member of its
 * organization. Each refusal is a CredentialRefused (invalid_grant). Records the use (`last_used_at`).
 */
export async function exchangeApiToken(
  input: { secret: string },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<ExchangedApiToken> {
  const problem = apiTokenProblem(input.secret);
  if (problem !== null) throw new CredentialRefused(problem);
  const token = await deps.repos.apiTokens.findBySecretHash(hashApiToken(input.secret));
  if (token === null) throw new CredentialRefused('This API token is not known: it may have been mistyped or deleted.');
  const now = deps.clock.now();
  if (token.revokedAt !== null) {
    throw new CredentialRefused(`The API token '${token.name}' was revoked at ${token.revokedAt.toISOString()}: create a new one.`);
  }
  if (token.expiresAt <= now) {
    throw new CredentialRefused(`The API token '${token.name}' expired at ${token.expiresAt.toISOString()}: create a new one.`);
  }
  const membership = await deps.repos.organizations.findMembership(token.createdBy, token.organizationId);
  if (membership === null) {
    throw new CredentialRefused(`The person who created the API token '${token.name}' is no longer a member of its organization.`);
  }
  await deps.repos.apiTokens.touch(token.id, now);
  const latest = now.getTime() + API_TOKEN_LIMITS.accessTokenSeconds * 1000;
  return {
    userId: token.createdBy,
    credential: { scope: token.scope, via: { via: 'api-token', tokenId: token.id, tokenName: token.name } },
    token: { ...token, lastUsedAt: now },
    expiresAt: new Date(Math.min(latest, token.expiresAt.getTime())),
  };
}
