import { Role } from '../entities/organization.js';
import type { Environment } from '../entities/release.js';

/** The roles that manage an organization's setup: environments (add, rename, remove, protect), preview access, and publishing to protected environments. */
export const MANAGER_ROLES: readonly Role[] = [Role.Owner, Role.Admin];

export const isManager = (role: Role): boolean => MANAGER_ROLES.includes(role);

/** Every member publishes to an open environment; only owners and admins to a protected one. */
export const canPublishTo = (role: Role, environment: Pick<Environment, 'protected'>): boolean =>
  !environment.protected || isManager(role);
