import type { CiTrustPolicy } from '../src/entities/credential.js';
import type { CiClaims } from '../src/rules/ci-claims.js';
import { matchCiPolicy, refMatches } from '../src/rules/ci-policy-match.js';

const policy = (overrides: Partial<CiTrustPolicy> = {}): CiTrustPolicy => ({
  id: 'p1',
  organizationId: 'org-a',
  name: 'web-release',
  provider: 'github',
  ownerId: '1001',
  repositoryId: '2002',
  repositoryName: 'acme/web',
  workflow: '.github/workflows/release.yml',
  environment: 'production',
  refPatterns: ['refs/tags/v*', 'refs/heads/main'],
  requireHostedRunner: true,
  scope: { organizationId: 'org-a', componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
  createdBy: 'u1',
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  grantId: null,
  ...overrides,
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

const refusal = (claim: string, message: string) => ({ refusal: { claim, message } });

test('a token matching every setting finds its policy', () => {
  const web = policy();
  expect(matchCiPolicy([web], claims())).toEqual({ policy: web });
  expect(matchCiPolicy([web], claims({ ref: 'refs/heads/main' }))).toEqual({ policy: web });
  const open = policy({ environment: null, refPatterns: [], requireHostedRunner: false });
  expect(matchCiPolicy([open], claims({ environment: null, runnerEnvironment: 'self-hosted', ref: 'refs/pull/1/merge' }))).toEqual({ policy: open });
});

test('another owner matches no policy (GitHub and GitLab claim names)', () => {
  expect(matchCiPolicy([policy()], claims({ ownerId: '9999' }))).toEqual(
    refusal('repository_owner_id', 'repository_owner_id matches no CI trust policy'),
  );
  expect(matchCiPolicy([policy()], claims({ provider: 'gitlab' }))).toEqual(refusal('namespace_id', 'namespace_id matches no CI trust policy'));
  expect(matchCiPolicy([], claims())).toEqual(refusal('repository_owner_id', 'repository_owner_id matches no CI trust policy'));
});

test('a recreated repository (same name, new id) is refused on repository_id; GitLab names project_id', () => {
  expect(matchCiPolicy([policy()], claims({ repositoryId: '3003' }))).toEqual(
    refusal('repository_id', "repository_id does not match policy 'web-release'"),
  );
  const gitlab = policy({ provider: 'gitlab', workflow: '.gitlab-ci.yml' });
  expect(matchCiPolicy([gitlab], claims({ provider: 'gitlab', repositoryId: '3003', workflowPath: '.gitlab-ci.yml' }))).toEqual(
    refusal('project_id', "project_id does not match policy 'web-release'"),
  );
});

test('another workflow is refused on job_workflow_ref; a reusable workflow named by the policy matches', () => {
  expect(matchCiPolicy([policy()], claims({ workflowPath: '.github/workflows/ci.yml' }))).toEqual(
    refusal('job_workflow_ref', "job_workflow_ref does not match policy 'web-release'"),
  );
  const reusable = policy({ workflow: '.github/workflows/publish.yml' });
  const called = claims({ workflowPath: '.github/workflows/publish.yml', workflowRef: 'acme/shared/.github/workflows/publish.yml@refs/tags/v2' });
  expect(matchCiPolicy([reusable], called)).toEqual({ policy: reusable });
});

test('a missing environment, a ref that does not match and a self-hosted runner are refused by their claims', () => {
  expect(matchCiPolicy([policy()], claims({ environment: null }))).toEqual(refusal('environment', "environment does not match policy 'web-release'"));
  expect(matchCiPolicy([policy()], claims({ ref: 'refs/heads/feature' }))).toEqual(refusal('ref', "ref does not match policy 'web-release'"));
  expect(matchCiPolicy([policy()], claims({ runnerEnvironment: 'self-hosted' }))).toEqual(
    refusal('runner_environment', "runner_environment does not match policy 'web-release'"),
  );
  expect(matchCiPolicy([policy()], claims({ runnerEnvironment: null }))).toMatchObject({ refusal: { claim: 'runner_environment' } });
});

test('the refusal names where the candidate that matched longest failed', () => {
  const otherRepository = policy({ id: 'p0', name: 'docs', repositoryId: '4004' });
  const web = policy();
  expect(matchCiPolicy([otherRepository, web], claims({ ref: 'refs/heads/feature' }))).toEqual(
    refusal('ref', "ref does not match policy 'web-release'"),
  );
});

test('matches in several organizations need organization; within one, the oldest acts', () => {
  const a = policy();
  const aLater = policy({ id: 'p2', name: 'later' });
  const b = policy({ id: 'p3', organizationId: 'org-b' });
  expect(matchCiPolicy([a, aLater, b], claims())).toEqual(
    refusal(
      'organization',
      'This CI token matches CI trust policies of several organizations: pass organization (the id of the one to publish to).',
    ),
  );
  expect(matchCiPolicy([a, aLater, b], claims(), 'org-b')).toEqual({ policy: b });
  expect(matchCiPolicy([a, aLater, b], claims(), 'org-a')).toEqual({ policy: a });
  expect(matchCiPolicy([a, b], claims(), 'org-c')).toEqual(
    refusal('repository_owner_id', 'repository_owner_id matches no CI trust policy in this organization'),
  );
});

test('ref patterns: * is any run of characters, over the whole ref; everything else is literal', () => {
  expect(refMatches('refs/tags/v*', 'refs/tags/v1.2.3')).toBe(true);
  expect(refMatches('refs/tags/v*', 'refs/tags/release')).toBe(false);
  expect(refMatches('refs/heads/main', 'refs/heads/main-old')).toBe(false);
  expect(refMatches('refs/heads/main', 'xrefs/heads/main')).toBe(false);
  expect(refMatches('refs/*/release-*', 'refs/heads/team/release-7')).toBe(true);
  expect(refMatches('refs/heads/v1.*', 'refs/heads/v1x2')).toBe(false);
  expect(refMatches('refs/heads/(a|b)', 'refs/heads/a')).toBe(false);
  expect(refMatches('*', 'refs/heads/anything')).toBe(true);
  expect(refMatches('refs/**', 'refs/')).toBe(true);
});
