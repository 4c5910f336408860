import { APP_TOOL_PREFIX } from '@cp/domain';

/*
 * Which scope each MCP method and tool needs, checked before the request reaches
 * the MCP server, so a missing scope is an HTTP 403 the client's OAuth machinery
 * understands (step-up), not a tool error. Each tool declares its own scope
 * (ToolDefinition.scope); this file only applies them.
 */
export const Scope = { Read: 'mcp:read', Write: 'mcp:write' } as const;
export type Scope = (typeof Scope)[keyof typeof Scope];
export const SUPPORTED_SCOPES: readonly Scope[] = [Scope.Read, Scope.Write];

/** What a tool needs: `public` is answered without a token; otherwise the token must carry that scope. */
export type ToolScope = 'public' | Scope;

/** `token`: any valid token carrying at least one MCP scope (every method but `ping`, and unknown tools). */
export type Requirement = ToolScope | 'token';

/** The tools by name, as far as the gate needs them (tools/registry.ts `toolsByName`). */
export type ScopedTools = ReadonlyMap<string, { readonly scope: ToolScope }>;

export interface RpcMessageSummary {
  readonly method: string | undefined;
  /** `params.name` of a tools/call. */
  readonly toolName: string | undefined;
  /** A tools/call whose params are not `{ name: string, arguments?: object }`. */
  readonly invalidParams?: boolean;
}

/**
 * Without a token only `ping` and public tools are answered; everything else
 * (initialize and tools/list included) needs one, so a client runs its OAuth
 * flow once, at connect. A `show_…` name is an app tool's (the caller's apps decide
 * which exist): mcp:read. Any other unknown tool needs a token, and the MCP server then
 * answers that it does not exist. resources/read needs mcp:read.
 */
export function requirementOf(message: RpcMessageSummary, tools: ScopedTools): Requirement {
  if (message.method === 'ping') return 'public';
  if (message.method === 'tools/call' && message.toolName !== undefined) {
    // An app tool (apps/show-app.ts; no tool of the registry is named so) only shows a released component: it reads, as get_component does.
    return tools.get(message.toolName)?.scope ?? (message.toolName.startsWith(APP_TOOL_PREFIX) ? Scope.Read : 'token');
  }
  // A view is a component's HTML (an app's is an organization's variant): reading it is reading.
  if (message.method === 'resources/read') return Scope.Read;
  return 'token';
}

export const isPublic = (messages: readonly RpcMessageSummary[], tools: ScopedTools): boolean =>
  messages.length > 0 && messages.every((message) => requirementOf(message, tools) === 'public');

/** The scopes the request needs that the token lacks (empty when allowed). */
export function missingScopes(messages: readonly RpcMessageSummary[], granted: ReadonlySet<string>, tools: ScopedTools): Scope[] {
  const missing = new Set<Scope>();
  for (const message of messages) {
    const requirement = requirementOf(message, tools);
    if (requirement === 'public') continue;
    if (requirement === 'token') {
      if (!SUPPORTED_SCOPES.some((scope) => granted.has(scope))) missing.add(Scope.Read);
      continue;
    }
    if (!granted.has(requirement)) missing.add(requirement);
  }
  return [...missing];
}
