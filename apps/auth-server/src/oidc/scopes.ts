/** The MCP resource's scopes (spec: "Scopes seen: mcp:read, mcp:write"). */
export const MCP_SCOPES = ['mcp:read', 'mcp:write'] as const;

/** Everything a client may register or request: the MCP scopes plus OpenID's two. */
export const SUPPORTED_SCOPES: readonly string[] = ['openid', 'offline_access', ...MCP_SCOPES];
