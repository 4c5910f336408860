import type { AuditNote } from '../entities/audit-event.js';
import type { MemberOrganization, Membership, Organization, Role } from '../entities/organization.js';
import type { PersonalOrganizationFor } from './members.js';

export interface NewOrganization {
  readonly id: string;
  readonly name: string;
  /** Environments created with the organization (ids chosen by the caller). */
  readonly environments: readonly { id: string; name: string; protected: boolean }[];
}

export interface Organizations {
  /** Atomic: the organization, its environments and an owner membership for `ownerId` (and, with `audit`, its OrganizationCreated row). */
  create(input: { organization: NewOrganization; ownerId: string; now: Date; audit?: AuditNote }): Promise<Organization>;
  findById(id: string): Promise<Organization | null>;
  /** The user's organizations, ordered by name then id. */
  listForUser(userId: string): Promise<MemberOrganization[]>;
  findMembership(userId: string, organizationId: string): Promise<Membership | null>;
  /** At most `limit` memberships of the organization with one of `roles`: owners first (the order of Role), then by user id. */
  listMembers(organizationId: string, options: { roles: readonly Role[]; limit: number }): Promise<Membership[]>;
  /**
   * Sets whether previews need a preview key; null when the organization does not exist.
   * Writes a PrivatePreviewsChanged audit row ({ before, after }) when the setting changed.
   */
  setPrivatePreviews(
    organizationId: string,
    enabled: boolean,
    change: { now: Date; audit: AuditNote },
  ): Promise<Organization | null>;
  /** Renames it and records OrganizationRenamed {before, after} in the same transaction; null when it does not exist. */
  rename(input: { organizationId: string; name: string; audit: AuditNote; now: Date }): Promise<Organization | null>;
  /**
   * Atomic: under a lock on the organization and its memberships, checks with
   * `checkOrganizationDeletion` (rules/membership-changes.ts) that the actor is an owner and
   * typed its current name, gives everyone whose default it is another default (as
   * Members.change does for someone leaving), then deletes it with everything it holds
   * (components, variants, releases, environments, flows, keys, memberships, its audit trail).
   * Returns the storage keys of its objects, for the caller to remove after the commit.
   */
  delete(input: {
    organizationId: string;
    actorId: string;
    confirmName: string;
    personalOrganizationFor: PersonalOrganizationFor;
    now: Date;
  }): Promise<{ objectKeys: string[] }>;
}
