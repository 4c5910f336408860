import type { GrantLookup } from '../ports/grant-lookup.js';

/** The unexpired grants as a Set the caller adds to and deletes from (the MCP server's tests and bench). */
export const grantLookupFromSet = (grants: Set<string>): GrantLookup => ({
  async exists(grantId) {
    return grants.has(grantId);
  },
});
