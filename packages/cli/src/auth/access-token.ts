/** An access token for the MCP server, and where it came from (shown by whoami, never the token itself). */
export interface AccessToken {
  readonly token: string;
  readonly source: 'api-token' | 'github-actions' | 'gitlab-ci' | 'login';
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

export const CPC_CLIENT_ID = 'cpc';
export const SCOPES = 'mcp:read mcp:write';
