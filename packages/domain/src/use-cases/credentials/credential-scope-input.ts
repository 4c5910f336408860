import { CredentialAccess, type CredentialScope } from '../../entities/credential.js';
import type { Role } from '../../entities/organization.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { API_TOKEN_LIMITS } from '../../rules/api-tokens.js';
import { isUuid } from '../../rules/ids.js';
import { can, Permission } from '../../rules/roles.js';

/** The narrowing a person asks for, as a form or a tool sends it. */
export interface CredentialScopeInput {
  /** null: every component of the organization. */
  readonly componentIds: readonly string[] | null;
  /** Environment names (case-insensitive) it may release to. */
  readonly environments: readonly string[];
  /** `read` or `write`. */
  readonly access: string;
  readonly protectedEnvironments: boolean;
}

const forbidden = (message: string) => new DomainError(ErrorCode.Forbidden, message);

/**
 * The scope of a new API token or CI trust policy in `organizationId`, checked against its creator's
 * current role (never beyond it: a viewer's credential reads only; protected environments only for a
 * role that publishes there) and the organization's components and environments.
 */
export async function credentialScope(
  input: CredentialScopeInput,
  creator: { organizationId: string; role: Role },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<CredentialScope> {
  const { organizationId, role } = creator;
  if (input.access !== CredentialAccess.Read && input.access !== CredentialAccess.Write) {
    throw invalidInput('scope.access', "must be 'read' or 'write'.");
  }
  const access = input.access;
  if (access === CredentialAccess.Write && !can(role, Permission.Write)) {
    throw forbidden(`Your role in this organization is ${role}: a token or policy you create can have read access only.`);
  }
  if (access === CredentialAccess.Read && (input.environments.length > 0 || input.protectedEnvironments)) {
    throw invalidInput('scope.environments', 'a read credential releases nowhere: leave environments empty, or choose write access.');
  }
  if (input.protectedEnvironments && !can(role, Permission.PublishProtected)) {
    throw forbidden(`Your role in this organization is ${role}: only owners and admins can allow releases to protected environments.`);
  }
  return {
    organizationId,
    componentIds: input.componentIds === null ? null : await knownComponents(input.componentIds, organizationId, deps),
    environments: await knownEnvironments(input.environments, organizationId, deps),
    access,
    protectedEnvironments: input.protectedEnvironments,
  };
}

async function knownComponents(ids: readonly string[], organizationId: string, deps: Pick<DomainDeps, 'repos'>): Promise<string[]> {
  const unique = [...new Set(ids)];
  const max = API_TOKEN_LIMITS.componentsPerScope;
  if (unique.length === 0) throw invalidInput('scope.componentIds', 'name at least one component, or pass null for all of them.');
  if (unique.length > max) throw invalidInput('scope.componentIds', `at most ${max} components; pass null for all of them.`);
  const found = await Promise.all(unique.map((id) => (isUuid(id) ? deps.repos.components.findById(id) : Promise.resolve(null))));
  const missing = unique.filter((_, index) => found[index]?.organizationId !== organizationId);
  if (missing.length > 0) throw invalidInput('scope.componentIds', `not components of this organization: ${missing.join(', ')}.`);
  return unique;
}

async function knownEnvironments(names: readonly string[], organizationId: string, deps: Pick<DomainDeps, 'repos'>): Promise<string[]> {
  if (names.length === 0) return [];
  const environments = await deps.repos.environments.listForOrganization(organizationId);
  const byKey = new Map(environments.map((environment) => [environment.name.toLowerCase(), environment.name]));
  const wanted = [...new Set(names.map((name) => name.trim().toLowerCase()))];
  const missing = wanted.filter((name) => !byKey.has(name));
  if (missing.length > 0) {
    throw invalidInput('scope.environments', `no such environment in this organization: ${missing.join(', ')} (it has ${[...byKey.values()].join(', ')}).`);
  }
  return wanted.map((name) => byKey.get(name)!);
}
