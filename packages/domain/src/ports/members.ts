import type { AuditNote } from '../entities/audit-event.js';
import type { Member, Role } from '../entities/organization.js';
import type { User } from '../entities/user.js';
import type { NewOrganization } from './organizations.js';

/** One change to an organization's memberships, made by an actor who is a member. */
export type MembershipChange =
  /** `from` is the role the actor saw: if it changed meanwhile, the change is refused (CONFLICT). */
  | { readonly kind: 'role'; readonly userId: string; readonly from: Role; readonly to: Role }
  | { readonly kind: 'remove'; readonly userId: string }
  | { readonly kind: 'leave' }
  /** `userId` becomes an owner; the actor (an owner) becomes an admin. */
  | { readonly kind: 'transfer'; readonly userId: string };

/** The subject of a change before and after it (after: null when they are no longer a member). */
export interface MembershipChangeResult {
  readonly userId: string;
  readonly before: Role;
  readonly after: Role | null;
}

/**
 * The organization a person gets when they lose their default organization and belong to no
 * other (as at sign-up). Pure: the repository calls it inside its transaction.
 */
export type PersonalOrganizationFor = (
  user: Pick<User, 'id' | 'email' | 'displayName'>,
) => NewOrganization;

export interface Members {
  /** The organization's members with their email and when they joined: owners first (the order of Role), then by email. */
  list(organizationId: string): Promise<Member[]>;
  /**
   * Atomic: locks the organization's memberships, checks the change against them with
   * `checkMembershipChange` (rules/membership-changes.ts: the actor's role as it is now, the
   * last owner), writes it with conditional updates and records one audit row. A person who
   * leaves or is removed from their default organization gets another of theirs as default
   * (the first by name), or `personalOrganizationFor` them when they have none.
   * Throws the rule's DomainError; nothing is written then.
   */
  change(input: {
    organizationId: string;
    actorId: string;
    change: MembershipChange;
    personalOrganizationFor: PersonalOrganizationFor;
    audit: AuditNote;
    now: Date;
  }): Promise<MembershipChangeResult>;
}
