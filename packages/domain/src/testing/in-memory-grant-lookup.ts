import type { GrantLookup, GrantOwner } from '../ports/grant-lookup.js';

/** The unexpired grants by id, in a Map the caller adds to and deletes from (the MCP server's tests and bench). */
export const grantLookupFromMap = (grants: ReadonlyMap<string, GrantOwner>): GrantLookup => ({
  async find(grantId) {
    const owner = grants.get(grantId);
    return owner === undefined ? null : { accountId: owner.accountId, clientId: owner.clientId };
  },
});
