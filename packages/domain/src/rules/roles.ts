import { Role } from '../entities/organization.js';
import type { Environment } from '../entities/release.js';

/** The roles that manage environments (add, rename, remove, protect) and publish to protected ones. */
export const ENVIRONMENT_MANAGERS: readonly Role[] = [Role.Owner, Role.Admin];

export const canManageEnvironments = (role: Role): boolean => ENVIRONMENT_MANAGERS.includes(role);

/** Every member publishes to an open environment; only owners and admins to a protected one. */
export const canPublishTo = (role: Role, environment: Pick<Environment, 'protected'>): boolean =>
  !environment.protected || canManageEnvironments(role);
