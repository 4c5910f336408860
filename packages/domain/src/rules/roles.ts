import { Role } from '../entities/organization.js';
import type { Environment } from '../entities/release.js';

/**
 * What each role may do: the one table every edge (dashboard, MCP tools) and every use case
 * reads. Each role holds the permissions of the roles below it. The README's roles table
 * mirrors this one.
 */
export const Permission = {
  /** Components, variants, history, environments, flows, members: everything that can be read. */
  Read: 'read',
  /** Uploads (new components and variants) and tag edits. */
  Write: 'write',
  /** Releases to an open environment; a member's publish to a protected one becomes a release request. */
  Publish: 'publish',
  /** Releases to protected environments, and deciding release requests. */
  PublishProtected: 'publish_protected',
  /** Environments (add, rename, remove, protect), flows, preview access, webhooks. */
  ManageSetup: 'manage_setup',
  /** Invitations, and the roles and membership of everyone below owner. */
  ManageMembers: 'manage_members',
  /** The organization's name, owners (promote, transfer ownership), deletion. */
  Own: 'own',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

const VIEWER: readonly Permission[] = [Permission.Read];
const MEMBER: readonly Permission[] = [...VIEWER, Permission.Write, Permission.Publish];
const ADMIN: readonly Permission[] = [
  ...MEMBER,
  Permission.PublishProtected,
  Permission.ManageSetup,
  Permission.ManageMembers,
];
const OWNER: readonly Permission[] = [...ADMIN, Permission.Own];

export const PERMISSIONS: { readonly [R in Role]: readonly Permission[] } = {
  owner: OWNER,
  admin: ADMIN,
  member: MEMBER,
  viewer: VIEWER,
};

export const can = (role: Role, permission: Permission): boolean => PERMISSIONS[role].includes(permission);

/** The roles holding a permission, highest first (for messages that say who can). */
export const rolesWith = (permission: Permission): Role[] =>
  Object.values(Role).filter((role) => can(role, permission));

/** Members publish to an open environment; only owners and admins to a protected one; viewers nowhere. */
export const canPublishTo = (role: Role, environment: Pick<Environment, 'protected'>): boolean =>
  can(role, environment.protected ? Permission.PublishProtected : Permission.Publish);

/** Whether `role` may give someone `target` or change a member who holds `target`: owners only touch owners. */
export const canAssignRole = (role: Role, target: Role): boolean =>
  target === Role.Owner ? can(role, Permission.Own) : can(role, Permission.ManageMembers);
