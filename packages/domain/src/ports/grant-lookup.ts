/** Whom an OAuth grant was given to: the account that consented, and the client it consented to. */
export interface GrantOwner {
  readonly accountId: string;
  readonly clientId: string;
}

/**
 * The OAuth grant behind an access token, as the MCP server checks it on every
 * token (with a short cache): it must still exist (revoking an application deletes
 * the grant) and belong to the token's subject and client.
 */
export interface GrantLookup {
  /** The owner of the unexpired grant with this id; null when none is stored (never existed, revoked, expired). */
  find(grantId: string): Promise<GrantOwner | null>;
}
