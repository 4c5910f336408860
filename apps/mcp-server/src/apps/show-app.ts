import { APP_TOOL_PREFIX, appArgumentsProblem, findMemberAppTool, type AppTool } from '@cp/domain';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { failureResult, toolError } from '../tools/call.js';
import type { ToolContext } from '../tools/define.js';
import { ToolErrorCode } from '../tools/errors.js';
import { actorOfPrincipal } from '../auth/principal.js';

/** The one name app tool calls are counted under: a label per app would grow without bound. */
export const APP_TOOL_METRIC_NAME = 'show_<app>';

/** Characters of the arguments quoted in the text answer; the structured answer has them all. */
const DATA_CHARS = 1000;

const quoted = (data: Record<string, unknown>): string => {
  const text = JSON.stringify(data);
  return text.length > DATA_CHARS ? `${text.slice(0, DATA_CHARS - 1)}…` : text;
};

/** The answer without any UI is complete: what is shown, which component, version and environment. */
function shown(tool: AppTool, data: Record<string, unknown>): CallToolResult {
  const { app, release } = tool.live;
  const summary = {
    component: app.componentName,
    componentId: app.componentId,
    version: release.version,
    environment: app.environmentName,
    title: app.title,
  };
  const text =
    `"${app.title}": the component ${app.componentName} (${app.componentId}) at version ${release.version}, ` +
    `as released to ${app.environmentName}, with the data ${quoted(data)}. ` +
    'Clients that render MCP Apps show it in the conversation.';
  return {
    content: [{ type: 'text', text }],
    structuredContent: { success: true, app: summary, data },
  };
}

/**
 * A tools/call of an app tool (docs/mcp-apps.md, section 2), or null when `name` cannot be one
 * (the caller then answers "unknown tool" as for any name). The name is looked up among the
 * caller's apps now, so a call between a publish and the client's next tools/list learns the
 * current name instead of showing a release that is gone.
 */
export async function callAppTool(
  name: string,
  rawArgs: Record<string, unknown> | undefined,
  ctx: ToolContext,
): Promise<CallToolResult | null> {
  if (!name.startsWith(APP_TOOL_PREFIX) || ctx.principal === null) return null;
  try {
    const found = await findMemberAppTool(
      { actor: actorOfPrincipal(ctx.principal), name },
      ctx.domain,
    );
    const shownName = name.slice(0, 100);
    switch (found.kind) {
      case 'current': {
        const args = rawArgs ?? {};
        const problem = appArgumentsProblem(found.tool.live.app.inputSchema, args);
        if (problem !== null)
          return toolError(
            ToolErrorCode.InvalidInput,
            `Invalid arguments for ${name}: ${problem}. Call it again with arguments that match its inputSchema (tools/list).`,
          );
        return shown(found.tool, args);
      }
      case 'outdated':
        return toolError(
          ToolErrorCode.NotFound,
          `${shownName} is not the current tool of "${found.current.live.app.title}": a new version was released since tools/list was read. Call ${found.current.name} instead (tools/list shows it).`,
        );
      case 'unreleased': {
        const { app } = found.live;
        return toolError(
          ToolErrorCode.Conflict,
          `${app.componentName} has no release in ${app.environmentName} any more, so "${app.title}" has nothing to show. Publish a version to ${app.environmentName} (publish_component), then call tools/list again.`,
        );
      }
      case 'unknown':
        return toolError(
          ToolErrorCode.NotFound,
          `${shownName} is not one of your app tools: the app may have been removed, or the name is wrong. Call tools/list again for the apps of your organizations.`,
        );
    }
  } catch (error) {
    return failureResult(error, APP_TOOL_METRIC_NAME, ctx);
  }
}
