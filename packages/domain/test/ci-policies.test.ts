import { ErrorCode } from '../src/errors/domain-error.js';
import { CredentialRefused } from '../src/errors/credential-refused.js';
import type { CiClaims } from '../src/rules/ci-claims.js';
import { createCiPolicy, type CreateCiPolicyInput } from '../src/use-cases/credentials/create-ci-policy.js';
import { deleteCiPolicy } from '../src/use-cases/credentials/delete-ci-policy.js';
import { listCiPolicies } from '../src/use-cases/credentials/list-ci-policies.js';
import { resolveCiPolicy } from '../src/use-cases/credentials/resolve-ci-policy.js';
import { WRITE_STAGING, anOrganizationWithTokens, codeOf } from './credential-builders.js';

const settings = (organizationId: string): Omit<CreateCiPolicyInput, 'actor'> => ({
  organizationId,
  name: 'web-release',
  provider: 'github',
  ownerId: '1001',
  repositoryId: '2002',
  repositoryName: 'acme/web',
  workflow: '.github/workflows/release.yml',
  environment: 'production',
  refPatterns: ['refs/tags/v*'],
  requireHostedRunner: true,
  scope: WRITE_STAGING,
});

const claims = (overrides: Partial<CiClaims> = {}): CiClaims => ({
  provider: 'github',
  ownerId: '1001',
  repositoryId: '2002',
  repository: 'acme/web',
  workflowPath: '.github/workflows/release.yml',
  workflowRef: 'acme/web/.github/workflows/release.yml@refs/tags/v1.0.0',
  environment: 'production',
  ref: 'refs/tags/v1.0.0',
  runnerEnvironment: 'github-hosted',
  runId: '8812',
  commit: '9fceb02',
  ...overrides,
});

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof CredentialRefused ? { claim: error.claim, message: error.message } : { unexpected: String(error) }),
  );

test('owners and admins create, list and delete policies; members and credentials are refused', async () => {
  const { deps, repos, admin, member, alice, organizationId, tokenActor } = await anOrganizationWithTokens();
  const policy = await createCiPolicy({ actor: admin.actor, ...settings(organizationId) }, deps);
  expect(policy).toMatchObject({ name: 'web-release', createdBy: admin.user.id, scope: { organizationId, environments: ['staging'] }, grantId: null });
  expect(await codeOf(createCiPolicy({ actor: member.actor, ...settings(organizationId), name: 'other' }, deps))).toBe(ErrorCode.Forbidden);
  expect(await codeOf(listCiPolicies({ actor: member.actor, organizationId }, deps))).toBe(ErrorCode.Forbidden);
  const actor = await tokenActor(alice);
  expect(await codeOf(createCiPolicy({ actor, ...settings(organizationId), name: 'through-token' }, deps))).toBe(ErrorCode.Forbidden);
  expect((await listCiPolicies({ actor: alice.actor, organizationId }, deps)).map((p) => p.id)).toEqual([policy.id]);
  expect(await codeOf(deleteCiPolicy({ actor: member.actor, organizationId, policyId: policy.id }, deps))).toBe(ErrorCode.Forbidden);
  expect((await deleteCiPolicy({ actor: alice.actor, organizationId, policyId: policy.id }, deps)).id).toBe(policy.id);
  expect(await codeOf(deleteCiPolicy({ actor: alice.actor, organizationId, policyId: policy.id }, deps))).toBe(ErrorCode.NotFound);
  expect(repos.state.auditEvents.filter((e) => e.kind.startsWith('ci_policy.')).map((e) => [e.kind, e.actorId])).toEqual([
    ['ci_policy.created', admin.user.id],
    ['ci_policy.deleted', alice.user.id],
  ]);
});

test('settings are checked field by field: numeric ids, the workflow path, ref patterns, a unique name, the scope ceiling', async () => {
  const { deps, admin, organizationId } = await anOrganizationWithTokens();
  const create = (overrides: Partial<CreateCiPolicyInput>) => codeOf(createCiPolicy({ actor: admin.actor, ...settings(organizationId), ...overrides }, deps));
  expect(await create({ ownerId: 'acme' })).toBe(ErrorCode.InvalidInput);
  expect(await create({ repositoryId: '12a' })).toBe(ErrorCode.InvalidInput);
  expect(await create({ provider: 'bitbucket' })).toBe(ErrorCode.InvalidInput);
  expect(await create({ workflow: 'release.yml' })).toBe(ErrorCode.InvalidInput);
  expect(await create({ workflow: '.github/workflows/../x.yml' })).toBe(ErrorCode.InvalidInput);
  expect(await create({ workflow: `.github/workflows/${'x'.repeat(250)}.yml` })).toBe(ErrorCode.InvalidInput);
  expect(await create({ refPatterns: ['main'] })).toBe(ErrorCode.InvalidInput);
  expect(await create({ refPatterns: Array.from({ length: 21 }, (_, i) => `refs/tags/v${i}`) })).toBe(ErrorCode.InvalidInput);
  expect(await create({ refPatterns: [`refs/${'x'.repeat(124)}`] })).toBe(ErrorCode.InvalidInput);
  expect(await create({ repositoryName: 'acme' })).toBe(ErrorCode.InvalidInput);
  expect(await create({ name: '' })).toBe(ErrorCode.InvalidInput);
  expect(await create({ scope: { ...WRITE_STAGING, environments: ['nowhere'] } })).toBe(ErrorCode.InvalidInput);
  expect(await create({ provider: 'gitlab', workflow: '.gitlab-ci.yml', repositoryName: 'group/sub/proj' })).toBe('resolved');
  expect(await create({ provider: 'gitlab', workflow: '.gitlab-ci.yml' })).toBe(ErrorCode.NameTaken);
});

test('at most 20 policies per organization, also under parallel creations', async () => {
  const { deps, admin, organizationId } = await anOrganizationWithTokens();
  const outcomes = await Promise.all(
    Array.from({ length: 24 }, (_, i) => codeOf(createCiPolicy({ actor: admin.actor, ...settings(organizationId), name: `p${i}` }, deps))),
  );
  expect(outcomes.filter((o) => o === 'resolved')).toHaveLength(20);
  expect(outcomes.filter((o) => o === ErrorCode.LimitReached)).toHaveLength(4);
});

test('resolving a CI token: the matching policy’s credential with via ci; refusals name the claim; a jti is used once', async () => {
  const { deps, admin, alice, organizationId } = await anOrganizationWithTokens();
  const policy = await createCiPolicy({ actor: admin.actor, ...settings(organizationId) }, deps);
  const resolved = await resolveCiPolicy({ claims: claims() }, deps);
  expect(resolved).toEqual({
    policy,
    credential: {
      scope: policy.scope,
      via: {
        via: 'ci',
        policyId: policy.id,
        policyName: 'web-release',
        provider: 'github',
        repository: 'acme/web',
        workflow: 'acme/web/.github/workflows/release.yml@refs/tags/v1.0.0',
        runId: '8812',
        commit: '9fceb02',
      },
    },
  });
  expect(await refusalOf(resolveCiPolicy({ claims: claims({ repositoryId: '9' }) }, deps))).toEqual({
    claim: 'repository_id',
    message: "repository_id does not match policy 'web-release'",
  });
  const tokenId = { issuer: 'https://token.actions.githubusercontent.com', jti: 'j-1', expiresAt: new Date(deps.clock.now().getTime() + 600_000) };
  const both = await Promise.all([1, 2].map(() => refusalOf(resolveCiPolicy({ claims: claims(), tokenId }, deps))));
  expect(both.filter((r) => r === null)).toHaveLength(1);
  expect(both.find((r) => r !== null)).toEqual({ claim: 'jti', message: 'jti was used already: a CI token can be exchanged once.' });
  await deleteCiPolicy({ actor: alice.actor, organizationId, policyId: policy.id }, deps);
  expect(await refusalOf(resolveCiPolicy({ claims: claims() }, deps))).toEqual({
    claim: 'repository_owner_id',
    message: 'repository_owner_id matches no CI trust policy',
  });
});

test('a policy whose creator left the organization is refused', async () => {
  const { deps, repos, admin, organizationId } = await anOrganizationWithTokens();
  await createCiPolicy({ actor: admin.actor, ...settings(organizationId) }, deps);
  repos.state.memberships = repos.state.memberships.filter((m) => m.userId !== admin.user.id);
  expect(await refusalOf(resolveCiPolicy({ claims: claims() }, deps))).toEqual({
    claim: null,
    message: "The person who created policy 'web-release' is no longer a member of its organization.",
  });
});
