/**
 * Does the OAuth grant behind an access token still exist? The MCP server asks
 * on every token (with a short cache); revoking an application deletes the grant.
 */
export interface GrantLookup {
  /** True while an unexpired grant with this id is stored. */
  exists(grantId: string): Promise<boolean>;
}
