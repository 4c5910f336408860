export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
  /** Previews (`/consume` without `env`) need one of the organization's preview keys. */
  readonly privatePreviews: boolean;
}

/** Highest first: the order of the database enum, so ordering by role puts owners first. */
export const Role = { Owner: 'owner', Admin: 'admin', Member: 'member', Viewer: 'viewer' } as const;
export type Role = (typeof Role)[keyof typeof Role];

export interface Membership {
  readonly userId: string;
  readonly organizationId: string;
  readonly role: Role;
}

/** An organization as seen by one of its members. */
export interface MemberOrganization extends Organization {
  readonly role: Role;
  readonly isDefault: boolean;
}

/** One person in an organization, as the members page lists them. */
export interface Member {
  readonly userId: string;
  readonly organizationId: string;
  readonly role: Role;
  readonly email: string;
  readonly displayName: string | null;
  readonly joinedAt: Date;
}
