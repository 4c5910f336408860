import { listMemberAppTools, type AppTool } from '@cp/domain';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../tools/define.js';
import { actorOfPrincipal } from '../auth/principal.js';

/** What every app tool's description ends with, so the model knows calling it shows something. */
export const SHOWS_IN_CONVERSATION =
  'Calling it shows the component in the conversation, with the arguments as its data.';

/**
 * One app tool as tools/list shows it: read-only (it only shows), its view linked both ways
 * hosts read it (`_meta.ui.resourceUri`, and the flat key older hosts read).
 */
export function appToolEntry({ name, resourceUri, live }: AppTool): Tool {
  const { app } = live;
  return {
    name,
    title: app.title,
    description: `${app.description}${/[.!?]$/.test(app.description) ? '' : '.'} ${SHOWS_IN_CONVERSATION}`,
    inputSchema: (app.inputSchema ?? { type: 'object' }) as Tool['inputSchema'],
    annotations: {
      title: app.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    _meta: { ui: { resourceUri }, 'ui/resourceUri': resourceUri },
  };
}

/**
 * The caller's app tools (docs/mcp-apps.md, section 2): one query per tools/list, not cached.
 * A client lists tools once per connection, so a cache would save little, and it would list
 * the previous release's name for its lifetime after a publish. A failing query leaves the app
 * tools out rather than failing the whole listing: the platform's own tools stay usable.
 */
export async function listAppTools(ctx: ToolContext): Promise<Tool[]> {
  if (ctx.principal === null) return [];
  try {
    const tools = await listMemberAppTools({ actor: actorOfPrincipal(ctx.principal) }, ctx.domain);
    return tools.map(appToolEntry);
  } catch (error) {
    ctx.log.warn({ err: error }, 'tools/list without app tools: they could not be read');
    return [];
  }
}
