/*
 * Which scope each MCP method and tool needs. One table, used before the request
 * reaches the MCP server, so a missing scope is an HTTP 403 the client's OAuth
 * machinery understands (step-up), not a tool error.
 */
export const Scope = { Read: 'mcp:read', Write: 'mcp:write' } as const;
export type Scope = (typeof Scope)[keyof typeof Scope];
export const SUPPORTED_SCOPES: readonly Scope[] = [Scope.Read, Scope.Write];

/** `public`: answered without a token. `token`: any valid token carrying at least one MCP scope. */
export type Requirement = 'public' | 'token' | Scope;

export const TOOL_SCOPES: Readonly<Record<string, Requirement>> = {
  get_service_guide: 'public',
  whoami: Scope.Read,
  list_organizations: Scope.Read,
  list_components: Scope.Read,
  get_component: Scope.Read,
  list_variants: Scope.Read,
  edit_component_tags: Scope.Write,
  upload_component: Scope.Write,
  confirm_upload: Scope.Write,
  publish_component: Scope.Write,
};

export interface RpcMessageSummary {
  readonly method: string | undefined;
  /** `params.name` of a tools/call. */
  readonly toolName: string | undefined;
  /** A tools/call whose params are not `{ name: string, arguments?: object }`. */
  readonly invalidParams?: boolean;
}

/**
 * Without a token only `ping` and `tools/call get_service_guide` are answered;
 * everything else (initialize and tools/list included) needs one, so a client
 * runs its OAuth flow once, at connect.
 */
export function requirementOf(message: RpcMessageSummary): Requirement {
  if (message.method === 'ping') return 'public';
  if (message.method === 'tools/call') {
    return (message.toolName !== undefined && TOOL_SCOPES[message.toolName]) || 'token';
  }
  return 'token';
}

export const isPublic = (messages: readonly RpcMessageSummary[]): boolean =>
  messages.length > 0 && messages.every((message) => requirementOf(message) === 'public');

/** The scopes the request needs that the token lacks (empty when allowed). */
export function missingScopes(messages: readonly RpcMessageSummary[], granted: ReadonlySet<string>): Scope[] {
  const missing = new Set<Scope>();
  for (const message of messages) {
    const requirement = requirementOf(message);
    if (requirement === 'public') continue;
    if (requirement === 'token') {
      if (!SUPPORTED_SCOPES.some((scope) => granted.has(scope))) missing.add(Scope.Read);
      continue;
    }
    if (!granted.has(requirement)) missing.add(requirement);
  }
  return [...missing];
}
