import {
  CredentialAccess,
  type ApiToken,
  type CiTrustPolicy,
  type CredentialScope,
} from '@cp/domain';
import type * as Rows from '../generated/prisma/client.js';
import type { Prisma } from '../generated/prisma/client.js';

/* API tokens and CI trust policies: rows <-> entities. The secret's hash stays in the database. */

/** The `scope` column: the narrowing without its organization, which is the row's own column. */
interface ScopeColumn {
  componentIds: string[] | null;
  environments: string[];
  access: CredentialAccess;
  protectedEnvironments: boolean;
}

export const scopeColumn = (scope: CredentialScope): Prisma.InputJsonObject => ({
  componentIds: scope.componentIds === null ? null : [...scope.componentIds],
  environments: [...scope.environments],
  access: scope.access,
  protectedEnvironments: scope.protectedEnvironments,
});

/** Written by scopeColumn only; anything else reads as the narrowest scope (read, nothing). */
const toScope = (organizationId: string, column: Prisma.JsonValue): CredentialScope => {
  const value = (
    typeof column === 'object' && column !== null && !Array.isArray(column) ? column : {}
  ) as Partial<ScopeColumn>;
  return {
    organizationId,
    componentIds: Array.isArray(value.componentIds)
      ? value.componentIds
      : value.componentIds === null
        ? null
        : [],
    environments: Array.isArray(value.environments) ? value.environments : [],
    access:
      value.access === CredentialAccess.Write ? CredentialAccess.Write : CredentialAccess.Read,
    protectedEnvironments: value.protectedEnvironments === true,
  };
};

export const toApiToken = (row: Rows.ApiToken): ApiToken => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  prefix: row.prefix,
  scope: toScope(row.organizationId, row.scope),
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
  grantId: row.grantId,
});

export const toCiTrustPolicy = (row: Rows.CiTrustPolicy): CiTrustPolicy => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  provider: row.provider,
  ownerId: row.ownerId,
  repositoryId: row.repositoryId,
  repositoryName: row.repositoryName,
  workflow: row.workflow,
  environment: row.environment,
  refPatterns: row.refPatterns ?? [],
  requireHostedRunner: row.requireHostedRunner,
  scope: toScope(row.organizationId, row.scope),
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  grantId: row.grantId,
});
