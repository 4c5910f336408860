/**
 * Port: does the OAuth grant behind a token still exist? Revoking an application
 * in the account pages deletes the grant; packages/db implements this over the
 * oidc-provider storage (`createGrantLookup(prisma)`).
 */
export interface GrantLookup {
  exists(grantId: string): Promise<boolean>;
}

/** In-memory grants, for tests and the bench (a Set the caller adds to and deletes from). */
export const grantLookupFromSet = (grants: Set<string>): GrantLookup => ({
  async exists(grantId) {
    return grants.has(grantId);
  },
});
