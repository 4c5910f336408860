import { normalizeCiClaims } from '../src/rules/ci-claims.js';

const GITHUB = {
  repository_owner_id: '1001',
  repository_id: '2002',
  repository: 'acme/web',
  job_workflow_ref: 'acme/web/.github/workflows/release.yml@refs/heads/main',
  environment: 'production',
  ref: 'refs/heads/main',
  runner_environment: 'github-hosted',
  run_id: '8812',
  sha: '9fceb02',
};

const GITLAB = {
  namespace_id: '31',
  project_id: '42',
  project_path: 'group/sub/proj',
  ci_config_ref_uri: 'gitlab.com/group/sub/proj//.gitlab-ci.yml@refs/heads/main',
  ref: 'v1.2.0',
  ref_type: 'tag',
  runner_environment: 'gitlab-hosted',
  pipeline_id: '555',
  sha: 'abc123',
};

test('GitHub Actions claims: ids, the workflow path from job_workflow_ref, environment and runner', () => {
  expect(normalizeCiClaims('github', GITHUB)).toEqual({
    claims: {
      provider: 'github',
      ownerId: '1001',
      repositoryId: '2002',
      repository: 'acme/web',
      workflowPath: '.github/workflows/release.yml',
      workflowRef: GITHUB.job_workflow_ref,
      environment: 'production',
      ref: 'refs/heads/main',
      runnerEnvironment: 'github-hosted',
      runId: '8812',
      commit: '9fceb02',
    },
  });
});

test('a reusable workflow is the one named by job_workflow_ref, in its own repository', () => {
  const reusable = { ...GITHUB, job_workflow_ref: 'acme/shared/.github/workflows/publish.yml@refs/tags/v2' };
  expect(normalizeCiClaims('github', reusable)).toMatchObject({ claims: { workflowPath: '.github/workflows/publish.yml' } });
});

test('gitlab.com claims: the config path after //, and refs/tags/ or refs/heads/ by ref_type', () => {
  expect(normalizeCiClaims('gitlab', GITLAB)).toEqual({
    claims: {
      provider: 'gitlab',
      ownerId: '31',
      repositoryId: '42',
      repository: 'group/sub/proj',
      workflowPath: '.gitlab-ci.yml',
      workflowRef: GITLAB.ci_config_ref_uri,
      environment: null,
      ref: 'refs/tags/v1.2.0',
      runnerEnvironment: 'gitlab-hosted',
      runId: '555',
      commit: 'abc123',
    },
  });
  expect(normalizeCiClaims('gitlab', { ...GITLAB, ref: 'main', ref_type: 'branch' })).toMatchObject({ claims: { ref: 'refs/heads/main' } });
});

test('a missing or wrong-typed claim is refused by its name', () => {
  expect(normalizeCiClaims('github', { ...GITHUB, repository_id: undefined })).toEqual({
    refusal: { claim: 'repository_id', message: 'repository_id is missing from the CI token' },
  });
  expect(normalizeCiClaims('github', { ...GITHUB, repository_owner_id: 1001 })).toEqual({
    refusal: { claim: 'repository_owner_id', message: 'repository_owner_id must be a non-empty string' },
  });
  expect(normalizeCiClaims('github', { ...GITHUB, run_id: 'latest' })).toMatchObject({ refusal: { claim: 'run_id' } });
  expect(normalizeCiClaims('github', { ...GITHUB, job_workflow_ref: 'release.yml' })).toMatchObject({ refusal: { claim: 'job_workflow_ref' } });
  expect(normalizeCiClaims('github', { ...GITHUB, environment: 7 })).toMatchObject({ refusal: { claim: 'environment' } });
  expect(normalizeCiClaims('gitlab', { ...GITLAB, ref_type: 'merge_request' })).toMatchObject({ refusal: { claim: 'ref_type' } });
  expect(normalizeCiClaims('gitlab', { ...GITLAB, ci_config_ref_uri: 'gitlab.com/group/proj/.gitlab-ci.yml@refs/heads/main' })).toMatchObject({
    refusal: { claim: 'ci_config_ref_uri' },
  });
  expect(normalizeCiClaims('gitlab', { ...GITLAB, namespace_id: undefined })).toMatchObject({ refusal: { claim: 'namespace_id' } });
});
