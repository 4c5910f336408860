/** Port: password hashes, kept apart from the domain's users (packages/db implements it). */
export interface Credentials {
  /** The stored hash for the user, or null when the user has no password. */
  findPasswordHash(userId: string): Promise<string | null>;
  /** Creates or replaces the user's password hash. */
  setPasswordHash(userId: string, passwordHash: string, now: Date): Promise<void>;
}
