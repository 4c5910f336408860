import type { ApiToken } from '../../entities/credential.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { API_TOKEN_LIMITS, apiTokenPrefix, hashApiToken, newApiTokenSecret } from '../../rules/api-tokens.js';
import { normalizeGivenName } from '../../rules/text.js';
import { changeStamp } from '../access/change-stamp.js';
import { refuseThroughCredential } from '../access/credential-scope.js';
import { requireMembership } from '../access/require-membership.js';
import { credentialScope, type CredentialScopeInput } from './credential-scope-input.js';

export interface CreateApiTokenInput {
  readonly actor: Actor;
  readonly organizationId: string;
  readonly name: string;
  /** 1 to 90; 30 when absent. */
  readonly expiresInDays?: number | undefined;
  readonly scope: CredentialScopeInput;
}

export interface CreatedApiToken {
  readonly token: ApiToken;
  /** Shown once: only its SHA-256 is stored. */
  readonly secret: string;
}

const DAY_MS = 86_400_000;

function expiryDays(raw: number | undefined): number {
  const { expiryDaysMin: min, expiryDaysMax: max, expiryDaysDefault } = API_TOKEN_LIMITS;
  const days = raw ?? expiryDaysDefault;
  if (!Number.isInteger(days) || days < min || days > max) {
    throw invalidInput('expiresInDays', `a whole number of days from ${min} to ${max} (${expiryDaysDefault} when left out).`);
  }
  return days;
}

/**
 * A new API token of the actor in the organization, for any member: it acts as them, narrowed by
 * `scope`, which may not exceed their role (credentialScope). At most API_TOKEN_LIMITS.tokensPerCreator
 * active tokens per person and organization, held by the repository's atomic check.
 */
export async function createApiToken(
  input: CreateApiTokenInput,
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<CreatedApiToken> {
  refuseThroughCredential(input.actor, 'create API tokens');
  const name = normalizeGivenName(input.name, 'API token', API_TOKEN_LIMITS.nameMaxLength, 'give the API token a name, for example the job that will use it.');
  const days = expiryDays(input.expiresInDays);
  const membership = await requireMembership(input.actor, input.organizationId, deps);
  const scope = await credentialScope(input.scope, membership, deps);
  const { now, audit } = changeStamp(input.actor, deps);
  const secret = newApiTokenSecret();
  const limit = API_TOKEN_LIMITS.tokensPerCreator;
  const token = await deps.repos.apiTokens.create(
    {
      id: deps.ids.newId(),
      organizationId: input.organizationId,
      name,
      prefix: apiTokenPrefix(secret),
      secretHash: hashApiToken(secret),
      scope,
      createdBy: input.actor.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + days * DAY_MS),
    },
    limit,
    audit,
  );
  if (token === 'limit-reached') {
    throw new DomainError(
      ErrorCode.LimitReached,
      `You already have ${limit} active API tokens in this organization: revoke one you no longer use, then create this one.`,
      { limit },
    );
  }
  return { token, secret };
}
