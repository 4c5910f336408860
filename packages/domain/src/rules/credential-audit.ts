import type { AuditValue } from '../entities/audit-event.js';
import type { ApiToken, CiTrustPolicy, CredentialScope } from '../entities/credential.js';

type Details = { readonly [key: string]: AuditValue };

const scopeDetails = (scope: CredentialScope): Details => ({
  componentIds: scope.componentIds === null ? null : [...scope.componentIds],
  environments: [...scope.environments],
  access: scope.access,
  protectedEnvironments: scope.protectedEnvironments,
});

/** The details of an API token's audit rows (created, revoked): one shape for the database and the fakes; never the secret. */
export const apiTokenAuditDetails = (token: Pick<ApiToken, 'id' | 'name' | 'prefix' | 'scope' | 'expiresAt'>): Details => ({
  tokenId: token.id,
  name: token.name,
  prefix: token.prefix,
  scope: scopeDetails(token.scope),
  expiresAt: token.expiresAt.toISOString(),
});

/** The details of a CI trust policy's audit rows (created, deleted): its settings. */
export const ciPolicyAuditDetails = (policy: Omit<CiTrustPolicy, 'grantId'>): Details => ({
  policyId: policy.id,
  name: policy.name,
  provider: policy.provider,
  ownerId: policy.ownerId,
  repositoryId: policy.repositoryId,
  repositoryName: policy.repositoryName,
  workflow: policy.workflow,
  environment: policy.environment,
  refPatterns: [...policy.refPatterns],
  requireHostedRunner: policy.requireHostedRunner,
  scope: scopeDetails(policy.scope),
});
