import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type {
  AuditKind,
  CiTrustPolicy,
  CredentialVia,
  NewApiToken,
  NewCiTrustPolicy,
} from '@cp/domain';
import { aScope } from '@cp/domain/testing';
import { createOidcStorage } from '../../src/oidc/index.js';
import { aUserWithOrganization, type TestDatabase } from '../../src/testing/index.js';

const DAY = 24 * 60 * 60 * 1000;

export { aScope };

/** A new token and its secret (shaped like the real ones; the repository only ever sees the hash). */
export function aNewApiToken(
  organizationId: string,
  createdBy: string,
  overrides: Partial<NewApiToken> = {},
): { token: NewApiToken; secret: string } {
  const secret = `cpt_${randomBytes(32).toString('base64url')}${randomBytes(5).toString('base64url').slice(0, 6)}`;
  const createdAt = overrides.createdAt ?? new Date();
  return {
    secret,
    token: {
      id: randomUUID(),
      organizationId,
      name: `token-${randomUUID().slice(0, 8)}`,
      prefix: secret.slice(0, 12),
      secretHash: createHash('sha256').update(secret).digest('hex'),
      scope: aScope(organizationId),
      createdBy,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 30 * DAY),
      ...overrides,
    },
  };
}

export function aNewCiPolicy(
  organizationId: string,
  createdBy: string,
  overrides: Partial<NewCiTrustPolicy> = {},
): NewCiTrustPolicy {
  return {
    id: randomUUID(),
    organizationId,
    name: `release-${randomUUID().slice(0, 8)}`,
    provider: 'github',
    ownerId: String(Math.floor(Math.random() * 1e9)),
    repositoryId: String(Math.floor(Math.random() * 1e9)),
    repositoryName: 'acme/web',
    workflow: '.github/workflows/release.yml',
    environment: null,
    refPatterns: ['refs/tags/v*'],
    requireHostedRunner: true,
    scope: aScope(organizationId),
    createdBy,
    createdAt: new Date(),
    ...overrides,
  };
}

export const aCiVia = (policy: Pick<CiTrustPolicy, 'id' | 'name'>): CredentialVia => ({
  via: 'ci',
  policyId: policy.id,
  policyName: policy.name,
  provider: 'github',
  repository: 'acme/web',
  workflow: 'acme/web/.github/workflows/release.yml@refs/heads/main',
  runId: '8812',
  commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
});

/** An OAuth grant of `accountId` with an access token and a refresh token under it, as oidc-provider stores them. */
export async function aGrantWithTokens(db: TestDatabase, accountId: string): Promise<string> {
  const storage = createOidcStorage(db.prisma);
  const grantId = randomUUID();
  await storage
    .adapterFor('Grant')
    .upsert(grantId, { jti: grantId, accountId, clientId: 'cpc' }, 3600);
  await storage
    .adapterFor('AccessToken')
    .upsert(randomUUID(), { grantId, accountId, clientId: 'cpc' }, 900);
  await storage
    .adapterFor('RefreshToken')
    .upsert(randomUUID(), { grantId, accountId, clientId: 'cpc' }, 3600);
  return grantId;
}

/** Rows of oidc_payloads that are the grant or stored under it. */
export const grantRows = (db: TestDatabase, grantId: string): Promise<number> =>
  db.prisma.oidcPayload.count({ where: { OR: [{ grantId }, { id: grantId, type: 'Grant' }] } });

/** A new user with their organization, as the owner of the credentials a test makes. */
export async function anOwnerIn(db: TestDatabase): Promise<{ userId: string; organizationId: string }> {
  const { user, organization } = await aUserWithOrganization(db.repos);
  return { userId: user.id, organizationId: organization.id };
}

/** The organization's audit rows of one kind, oldest first. */
export const auditRowsIn = (db: TestDatabase, organizationId: string, kind: AuditKind) =>
  db.prisma.auditEvent.findMany({ where: { organizationId, kind }, orderBy: { seq: 'asc' } });

/** Deletes the organization as its owner does (the personal organization it leaves behind is empty). */
export async function deleteOrganizationOf(db: TestDatabase, organizationId: string, userId: string): Promise<void> {
  const organization = (await db.repos.organizations.findById(organizationId))!;
  await db.repos.organizations.delete({
    organizationId,
    actorId: userId,
    confirmName: organization.name,
    personalOrganizationFor: (user) => ({ id: randomUUID(), name: `${user.email}'s`, environments: [] }),
    now: new Date(),
  });
}
