import type { ActingCredential } from '../../entities/credential.js';
import { CredentialAccess } from '../../entities/credential.js';
import { Role } from '../../entities/organization.js';
import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { can, canPublishTo, Permission } from '../../rules/roles.js';

/*
 * The narrowing of an API token or a CI trust policy (docs/cli-and-ci.md), applied where use cases
 * find memberships, components and publish rights: a credential never exceeds its creator's current
 * role, and never leaves its organization, its components or its environments.
 */

/** How a refusal names the credential: "The API token 'nightly'", "The CI trust policy 'web-release'". */
export const credentialLabel = ({ via }: ActingCredential): string =>
  via.via === 'api-token' ? `The API token '${via.tokenName}'` : `The CI trust policy '${via.policyName}'`;

/** Whether the actor may see this organization at all: a credential sees only its own (others are NOT_FOUND). */
export const withinCredentialOrganization = (actor: Actor, organizationId: string): boolean =>
  actor.credential === undefined || actor.credential.scope.organizationId === organizationId;

/** The organizations among `rows` the actor may see. */
export const visibleOrganizations = <T extends { readonly id: string }>(actor: Actor, rows: readonly T[]): T[] =>
  rows.filter((row) => withinCredentialOrganization(actor, row.id));

/** The role the actor acts with: the person's, capped to a viewer's (read) or a member's (write) through a credential. */
export function cappedRole(role: Role, credential: ActingCredential | undefined): Role {
  if (credential === undefined) return role;
  const ceiling = credential.scope.access === CredentialAccess.Read ? Role.Viewer : Role.Member;
  const order = Object.values(Role);
  return order.indexOf(role) >= order.indexOf(ceiling) ? role : ceiling;
}

const componentsIn = (credential: ActingCredential): readonly string[] | null => credential.scope.componentIds;

/** FORBIDDEN when the actor's credential is narrowed to components and this is not one of them. */
export function requireComponentInScope(actor: Actor, componentId: string): void {
  const credential = actor.credential;
  const allowed = credential && componentsIn(credential);
  if (!credential || !allowed || allowed.includes(componentId)) return;
  throw new DomainError(
    ErrorCode.Forbidden,
    `${credentialLabel(credential)} may act only on components ${allowed.join(', ')}; component ${componentId} is not one of them. Use a token or policy that includes it.`,
    { componentIds: allowed },
  );
}

/** The rows among `rows` (components, apps by component) the actor's credential may touch. */
export const componentsInScope = <T>(actor: Actor, rows: readonly T[], componentIdOf: (row: T) => string): T[] => {
  const allowed = actor.credential && componentsIn(actor.credential);
  return allowed ? rows.filter((row) => allowed.includes(componentIdOf(row))) : [...rows];
};

/** FORBIDDEN for a new component through a credential narrowed to components (it could not touch it afterwards). */
export function refuseNewComponentInScope(actor: Actor): void {
  const credential = actor.credential;
  if (!credential || componentsIn(credential) === null) return;
  throw new DomainError(
    ErrorCode.Forbidden,
    `${credentialLabel(credential)} may act only on components ${componentsIn(credential)!.join(', ')}: it cannot create a new component. Pass componentId, or use a token or policy for all components.`,
    { componentIds: componentsIn(credential) },
  );
}

/** FORBIDDEN when the person's own role could, but the credential's narrowing cannot. */
export const credentialForbidden = (credential: ActingCredential, what: string): DomainError =>
  new DomainError(
    ErrorCode.Forbidden,
    `${credentialLabel(credential)} has ${credential.scope.access} access, so it cannot ${what}. ${
      credential.scope.access === CredentialAccess.Read ? 'Use a token or policy with write access.' : 'Only a person signed in can.'
    }`,
    { access: credential.scope.access },
  );

/**
 * How the actor publishes to `environment`: `direct` or `request` (a release request, as a member's).
 * Without a credential, the role decides (canPublishTo). Through one, the environment must be in its
 * scope (FORBIDDEN naming the allowed ones), and a protected environment is `direct` only when the
 * credential allows protected environments and the person's real role may publish there.
 */
export function publishWay(actor: Actor, personRole: Role, environment: Environment): 'direct' | 'request' {
  const credential = actor.credential;
  if (credential === undefined) return canPublishTo(personRole, environment) ? 'direct' : 'request';
  const allowed = credential.scope.environments;
  if (!allowed.includes(environment.name)) {
    const list = allowed.length === 0 ? 'none' : allowed.join(', ');
    throw new DomainError(
      ErrorCode.Forbidden,
      `${credentialLabel(credential)} may release only to these environments: ${list}. ${environment.name} is not one of them.`,
      { environments: allowed },
    );
  }
  if (!environment.protected) return 'direct';
  return credential.scope.protectedEnvironments && can(personRole, Permission.PublishProtected) ? 'direct' : 'request';
}

/** FORBIDDEN for what only a person signed in may do (making or managing credentials, leaving, new organizations). */
export function refuseThroughCredential(actor: Actor, what: string): void {
  if (actor.credential === undefined) return;
  throw new DomainError(
    ErrorCode.Forbidden,
    `${credentialLabel(actor.credential)} cannot ${what}: only a person signed in can (the dashboard, or an assistant).`,
  );
}
