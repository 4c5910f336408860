import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from './define.js';
import { toToolFailure, ToolErrorCode } from './errors.js';

const asText = (body: unknown): CallToolResult['content'] => [{ type: 'text', text: JSON.stringify(body) }];

export function toolSuccess(data: Record<string, unknown>): CallToolResult {
  const body = { success: true, ...data };
  return { content: asText(body), structuredContent: body };
}

export function toolError(code: string, message: string): CallToolResult {
  const body = { success: false, error: { code, message } };
  return { content: asText(body), structuredContent: body, isError: true };
}

/** `segments[0].arms[1]`. */
const pathText = (path: readonly PropertyKey[]): string =>
  path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');

/** "componentId must be a UUID…", "limit is required.", "unknown parameter "x"…": one sentence per problem. */
export function describeInvalidArguments(tool: ToolDefinition, args: Record<string, unknown>, error: z.ZodError): string {
  const known = Object.keys(tool.input.shape);
  const problems = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      // Inside a nested object (an arm of a segment, say): name where, since the accepted list below is the top level's.
      if (issue.path.length > 0) return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')} in ${pathText(issue.path)}.`;
      const accepted = known.length > 0 ? `accepted: ${known.join(', ')}` : 'this tool takes no parameters';
      return `unknown parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')} (${accepted}).`;
    }
    const [field] = issue.path;
    if (issue.path.length === 1 && typeof field === 'string' && args[field] === undefined) return `${field} is required.`;
    if (issue.code === 'invalid_type' && issue.path.length === 1 && typeof field === 'string' && args[field] === null) {
      return `${field} must not be null; omit it instead.`;
    }
    return issue.message;
  });
  return `Invalid arguments for ${tool.name}: ${[...new Set(problems)].join(' ')}`;
}

/** Validates, runs and shapes one tool call. Never throws: every failure is a tool error result. */
export async function runTool(tool: ToolDefinition, rawArgs: Record<string, unknown> | undefined, ctx: ToolContext): Promise<CallToolResult> {
  const args = rawArgs ?? {};
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return toolError(ToolErrorCode.InvalidInput, describeInvalidArguments(tool, args, parsed.error));
  try {
    const data = await tool.run(parsed.data, ctx);
    return toolSuccess(data);
  } catch (error) {
    return failureResult(error, tool.name, ctx);
  }
}

/** A thrown failure as the tool error the caller gets, logged by its kind (a refusal is no fault). */
export function failureResult(error: unknown, toolName: string, ctx: ToolContext): CallToolResult {
  const failure = toToolFailure(error, ctx.requestId);
  if (failure.kind === 'unexpected') ctx.log.error({ err: error, tool: toolName }, 'tool failed unexpectedly');
  else if (failure.kind === 'outage') ctx.log.warn({ err: error, tool: toolName }, 'tool failed: a dependency is unavailable');
  else ctx.log.info({ tool: toolName, code: failure.code }, 'tool refused');
  return toolError(failure.code, failure.message);
}
