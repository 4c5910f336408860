/**
 * Password hashes, kept apart from the domain's users: the auth server computes
 * and checks them, the domain never reads them (packages/db implements this).
 */
export interface Credentials {
  /** The stored hash for the user, or null when the user has no password (or no such user). */
  findPasswordHash(userId: string): Promise<string | null>;
  /** Creates or replaces the user's password hash. */
  setPasswordHash(userId: string, passwordHash: string, now: Date): Promise<void>;
  /**
   * Replaces the hash only while it is still `expected` (a rehash of the same password
   * must never undo a change made meanwhile); false when it was not.
   */
  replacePasswordHash(
    userId: string,
    expected: string,
    passwordHash: string,
    now: Date,
  ): Promise<boolean>;
}
