import { CiProvider } from '../entities/credential.js';

/** A verified CI OIDC token's claims, the same for every provider (the names are GitHub's or GitLab's below). */
export interface CiClaims {
  readonly provider: CiProvider;
  /** GitHub `repository_owner_id`, GitLab `namespace_id`. */
  readonly ownerId: string;
  /** GitHub `repository_id`, GitLab `project_id`. */
  readonly repositoryId: string;
  /** GitHub `repository`, GitLab `project_path`: `owner/name`. */
  readonly repository: string;
  /** The workflow file's path in its repository: `.github/workflows/release.yml`, `.gitlab-ci.yml`. */
  readonly workflowPath: string;
  /** GitHub `job_workflow_ref`, GitLab `ci_config_ref_uri`, whole. */
  readonly workflowRef: string;
  readonly environment: string | null;
  /** `refs/heads/…` or `refs/tags/…` (GitLab's `ref` and `ref_type` put together). */
  readonly ref: string;
  /** `github-hosted`, `gitlab-hosted`, `self-hosted`; null when the token does not say. */
  readonly runnerEnvironment: string | null;
  /** GitHub `run_id`, GitLab `pipeline_id`. */
  readonly runId: string;
  /** `sha`. */
  readonly commit: string;
}

/** Why a CI token is refused, naming the provider's own claim (the auth server answers it as invalid_grant). */
export interface CiRefusal {
  /** The provider's claim name (`repository_id`, `project_id`, …), or `organization` for the request's own parameter. */
  readonly claim: string;
  readonly message: string;
}

/** The provider's name for each compared claim, so refusals say what the CI's own documentation says. */
export const CI_CLAIM_NAMES = {
  github: {
    ownerId: 'repository_owner_id',
    repositoryId: 'repository_id',
    repository: 'repository',
    workflow: 'job_workflow_ref',
    environment: 'environment',
    ref: 'ref',
    runnerEnvironment: 'runner_environment',
    runId: 'run_id',
    commit: 'sha',
  },
  gitlab: {
    ownerId: 'namespace_id',
    repositoryId: 'project_id',
    repository: 'project_path',
    workflow: 'ci_config_ref_uri',
    environment: 'environment',
    ref: 'ref',
    runnerEnvironment: 'runner_environment',
    runId: 'pipeline_id',
    commit: 'sha',
  },
} as const satisfies Record<CiProvider, Record<string, string>>;

/** The runner_environment value of the provider's own (hosted) runners. */
export const HOSTED_RUNNER: Readonly<Record<CiProvider, string>> = { github: 'github-hosted', gitlab: 'gitlab-hosted' };

const DIGITS = /^[0-9]{1,20}$/;

class Refused extends Error {
  constructor(readonly refusal: CiRefusal) {
    super(refusal.message);
  }
}

const refuse = (claim: string, problem: string): never => {
  throw new Refused({ claim, message: `${claim} ${problem}` });
};

/** Reads the token's claims by their provider names; each miss throws a Refused naming the claim. */
function reader(payload: Readonly<Record<string, unknown>>) {
  const text = (claim: string): string => {
    const value = payload[claim];
    if (value === undefined || value === null) return refuse(claim, 'is missing from the CI token');
    if (typeof value !== 'string' || value.length === 0) return refuse(claim, 'must be a non-empty string');
    return value;
  };
  return {
    text,
    id: (claim: string): string => {
      const value = text(claim);
      return DIGITS.test(value) ? value : refuse(claim, 'must be a numeric id');
    },
    optional: (claim: string): string | null => (payload[claim] === undefined || payload[claim] === null ? null : text(claim)),
  };
}

/** `owner/repo/.github/workflows/x.yml@refs/heads/main` → `.github/workflows/x.yml` (the called workflow's own path). */
function githubWorkflowPath(ref: string): string | null {
  const at = ref.indexOf('@');
  const segments = (at === -1 ? '' : ref.slice(0, at)).split('/');
  return segments.length > 2 && segments.slice(2).every((s) => s.length > 0) ? segments.slice(2).join('/') : null;
}

/** `gitlab.com/group/project//.gitlab-ci.yml@refs/heads/main` → `.gitlab-ci.yml`. */
function gitlabConfigPath(uri: string): string | null {
  const at = uri.indexOf('@');
  const before = at === -1 ? '' : uri.slice(0, at);
  const split = before.indexOf('//');
  const path = split === -1 ? '' : before.slice(split + 2);
  return path.length > 0 ? path : null;
}

function github(payload: Readonly<Record<string, unknown>>): CiClaims {
  const read = reader(payload);
  const names = CI_CLAIM_NAMES.github;
  const workflowRef = read.text(names.workflow);
  return {
    provider: CiProvider.GitHub,
    ownerId: read.id(names.ownerId),
    repositoryId: read.id(names.repositoryId),
    repository: read.text(names.repository),
    workflowPath: githubWorkflowPath(workflowRef) ?? refuse(names.workflow, 'must read owner/repository/path@ref'),
    workflowRef,
    environment: read.optional(names.environment),
    ref: read.text(names.ref),
    runnerEnvironment: read.optional(names.runnerEnvironment),
    runId: read.id(names.runId),
    commit: read.text(names.commit),
  };
}

function gitlab(payload: Readonly<Record<string, unknown>>): CiClaims {
  const read = reader(payload);
  const names = CI_CLAIM_NAMES.gitlab;
  const workflowRef = read.text(names.workflow);
  const ref = read.text(names.ref);
  const refType = read.text('ref_type');
  const kind = refType === 'branch' ? 'heads' : refType === 'tag' ? 'tags' : refuse('ref_type', "must be 'branch' or 'tag'");
  return {
    provider: CiProvider.GitLab,
    ownerId: read.id(names.ownerId),
    repositoryId: read.id(names.repositoryId),
    repository: read.text(names.repository),
    workflowPath: gitlabConfigPath(workflowRef) ?? refuse(names.workflow, 'must read host/project//path@ref'),
    workflowRef,
    environment: read.optional(names.environment),
    ref: `refs/${kind}/${ref}`,
    runnerEnvironment: read.optional(names.runnerEnvironment),
    runId: read.id(names.runId),
    commit: read.text(names.commit),
  };
}

/**
 * The claims of a CI OIDC token whose signature, issuer, audience and times were verified already,
 * or a refusal naming the first claim that is missing or malformed. Pure: the verifier hands the payload in.
 */
export function normalizeCiClaims(
  provider: CiProvider,
  payload: Readonly<Record<string, unknown>>,
): { readonly claims: CiClaims } | { readonly refusal: CiRefusal } {
  try {
    return { claims: provider === CiProvider.GitHub ? github(payload) : gitlab(payload) };
  } catch (error) {
    if (error instanceof Refused) return { refusal: error.refusal };
    throw error;
  }
}
