import { CiProvider } from '../../entities/credential.js';
import { invalidInput } from '../../errors/factories.js';
import { API_TOKEN_LIMITS } from '../../rules/api-tokens.js';
import { hasControlCharacters, normalizeGivenName } from '../../rules/text.js';

/** What a person fills in for a CI trust policy, besides its scope. */
export interface CiPolicySettingsInput {
  readonly name: string;
  /** `github` or `gitlab`. */
  readonly provider: string;
  /** GitHub `repository_owner_id`, GitLab `namespace_id`: digits. */
  readonly ownerId: string;
  /** GitHub `repository_id`, GitLab `project_id`: digits. */
  readonly repositoryId: string;
  /** `owner/name` (GitLab: `group/subgroup/project`), for people reading the policy. */
  readonly repositoryName: string;
  /** `.github/workflows/release.yml`, `.gitlab-ci.yml`. */
  readonly workflow: string;
  readonly environment?: string | null | undefined;
  readonly refPatterns?: readonly string[] | undefined;
  readonly requireHostedRunner?: boolean | undefined;
}

export interface CiPolicySettings {
  readonly name: string;
  readonly provider: CiProvider;
  readonly ownerId: string;
  readonly repositoryId: string;
  readonly repositoryName: string;
  readonly workflow: string;
  readonly environment: string | null;
  readonly refPatterns: readonly string[];
  readonly requireHostedRunner: boolean;
}

const DIGITS = /^[0-9]{1,20}$/;
const REPOSITORY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;
const NO_SPACE = /^\S+$/;

const numericId = (field: string, raw: string, claim: string): string => {
  const value = raw.trim();
  if (!DIGITS.test(value)) throw invalidInput(field, `the numeric ${claim} (digits only), not a name: names can be reused, ids cannot.`);
  return value;
};

function workflowPath(provider: CiProvider, raw: string): string {
  const path = raw.trim();
  const max = API_TOKEN_LIMITS.workflowPathMaxLength;
  if (path.length === 0 || path.length > max || !NO_SPACE.test(path) || path.includes('@') || path.startsWith('/') || path.includes('..')) {
    throw invalidInput('workflow', `the workflow file's path in its repository, at most ${max} characters, without spaces, '@' or '..' (for example ${provider === CiProvider.GitHub ? '.github/workflows/release.yml' : '.gitlab-ci.yml'}).`);
  }
  if (!/\.ya?ml$/.test(path)) throw invalidInput('workflow', 'a workflow file ends with .yml or .yaml.');
  if (provider === CiProvider.GitHub && !path.startsWith('.github/workflows/')) {
    throw invalidInput('workflow', 'GitHub Actions workflows live in .github/workflows/ (for example .github/workflows/release.yml).');
  }
  return path;
}

function refPatterns(raw: readonly string[]): string[] {
  const { refPatternsPerPolicy: most, refPatternMaxLength: max } = API_TOKEN_LIMITS;
  const patterns = [...new Set(raw.map((pattern) => pattern.trim()))];
  if (patterns.length > most) throw invalidInput('refPatterns', `at most ${most} patterns.`);
  for (const pattern of patterns) {
    if (!pattern.startsWith('refs/') || pattern.length > max || !NO_SPACE.test(pattern)) {
      throw invalidInput('refPatterns', `"${pattern.slice(0, max)}": a pattern starts with refs/ (refs/heads/main, refs/tags/v*), has no spaces and at most ${max} characters.`);
    }
  }
  return patterns;
}

function environmentName(raw: string | null | undefined): string | null {
  const name = raw?.trim() ?? '';
  if (name.length === 0) return null;
  if (name.length > 255 || hasControlCharacters(name)) throw invalidInput('environment', 'the CI deployment environment, at most 255 characters.');
  return name;
}

/** The settings of a new CI trust policy, each checked with a message naming the field. */
export function ciPolicySettings(input: CiPolicySettingsInput): CiPolicySettings {
  const name = normalizeGivenName(input.name, 'CI trust policy', API_TOKEN_LIMITS.nameMaxLength, 'give the policy a name, for example web-release.');
  if (input.provider !== CiProvider.GitHub && input.provider !== CiProvider.GitLab) {
    throw invalidInput('provider', "'github' (GitHub Actions) or 'gitlab' (gitlab.com).");
  }
  const provider = input.provider;
  const github = provider === CiProvider.GitHub;
  const repositoryName = input.repositoryName.trim();
  if (!REPOSITORY.test(repositoryName) || repositoryName.length > 255) {
    throw invalidInput('repositoryName', github ? 'owner/name, as in the repository URL.' : 'group/project (subgroups allowed), as in the project URL.');
  }
  return {
    name,
    provider,
    ownerId: numericId('ownerId', input.ownerId, github ? 'repository_owner_id' : 'namespace_id'),
    repositoryId: numericId('repositoryId', input.repositoryId, github ? 'repository_id' : 'project_id'),
    repositoryName,
    workflow: workflowPath(provider, input.workflow),
    environment: environmentName(input.environment),
    refPatterns: refPatterns(input.refPatterns ?? []),
    requireHostedRunner: input.requireHostedRunner ?? false,
  };
}
