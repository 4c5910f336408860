import type { AuditNote } from '../entities/audit-event.js';
import type { User } from '../entities/user.js';
import type { NewOrganization } from './organizations.js';

export interface Users {
  /**
   * Atomic: creates the user, the organization, an owner membership, the
   * organization's environments and, when given, the user's password hash; the
   * organization becomes the user's default. Throws DomainError NAME_TAKEN when
   * the email (case-insensitive) is taken.
   */
  createWithOrganization(input: {
    user: { id: string; email: string; displayName: string | null };
    organization: NewOrganization;
    /** Opaque to the domain: computed and checked by the auth server, stored in the same transaction. */
    passwordHash?: string | undefined;
    now: Date;
    /** When given, the organization's `organization.created` audit row, written in the same transaction. */
    audit?: AuditNote;
  }): Promise<User>;
  findById(id: string): Promise<User | null>;
  /** The users among `ids` that exist, in any order, in one read (ids that are not UUIDs match none). */
  findByIds(ids: readonly string[]): Promise<User[]>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<User | null>;
}
