import type { CiTrustPolicy } from '../../entities/credential.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { API_TOKEN_LIMITS } from '../../rules/api-tokens.js';
import { Permission } from '../../rules/roles.js';
import { changeStamp } from '../access/change-stamp.js';
import { refuseThroughCredential } from '../access/credential-scope.js';
import { requireActingPermission } from '../access/require-permission.js';
import { ciPolicySettings, type CiPolicySettingsInput } from './ci-policy-settings.js';
import { credentialScope, type CredentialScopeInput } from './credential-scope-input.js';

export interface CreateCiPolicyInput extends CiPolicySettingsInput {
  readonly actor: Actor;
  readonly organizationId: string;
  readonly scope: CredentialScopeInput;
}

/**
 * A new CI trust policy, for roles that manage the setup (owners and admins): CI jobs it matches
 * publish as the actor, narrowed by `scope` (never beyond the actor's role). Names are unique in the
 * organization; at most API_TOKEN_LIMITS.ciPoliciesPerOrganization, held by the repository's atomic check.
 */
export async function createCiPolicy(
  input: CreateCiPolicyInput,
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<CiTrustPolicy> {
  refuseThroughCredential(input.actor, 'create CI trust policies');
  const settings = ciPolicySettings(input);
  const { membership } = await requireActingPermission(
    input.actor,
    input.organizationId,
    Permission.ManageSetup,
    'create CI trust policies',
    deps,
  );
  const scope = await credentialScope(input.scope, membership, deps);
  const { now, audit } = changeStamp(input.actor, deps);
  const limit = API_TOKEN_LIMITS.ciPoliciesPerOrganization;
  const created = await deps.repos.ciTrustPolicies.create(
    { id: deps.ids.newId(), organizationId: input.organizationId, ...settings, scope, createdBy: input.actor.userId, createdAt: now },
    limit,
    audit,
  );
  if (created === 'limit-reached') {
    throw new DomainError(
      ErrorCode.LimitReached,
      `The organization already has ${limit} CI trust policies: delete one it no longer uses, then create this one.`,
      { limit },
    );
  }
  if (created === 'name-taken') {
    throw new DomainError(ErrorCode.NameTaken, `A CI trust policy named '${settings.name}' already exists in this organization: choose another name.`);
  }
  return created;
}
