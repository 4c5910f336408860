import type { AuditNote } from '../entities/audit-event.js';
import type { MemberOrganization, Membership, Organization, Role } from '../entities/organization.js';

export interface NewOrganization {
  readonly id: string;
  readonly name: string;
  /** Environments created with the organization (ids chosen by the caller). */
  readonly environments: readonly { id: string; name: string; protected: boolean }[];
}

export interface Organizations {
  /** Atomic: the organization, its environments and an owner membership for `ownerId`. */
  create(input: { organization: NewOrganization; ownerId: string; now: Date }): Promise<Organization>;
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
}
