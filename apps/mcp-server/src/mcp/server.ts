import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { listAppResources, readAppResource, unknownResource } from '../apps/app-resource.js';
import { listAppTools } from '../apps/app-tools-listing.js';
import { APP_TOOL_METRIC_NAME, callAppTool } from '../apps/show-app.js';
import { runTool } from '../tools/call.js';
import type { ToolContext, ToolDefinition } from '../tools/define.js';

export const SERVER_NAME = 'component-tool-server';

const INSTRUCTIONS =
  'Tools for the component platform. A component is one dist/index.html built by the project. ' +
  'To upload: upload_component (name/componentId/organization from service.config.json), run the returned curlCommand, then confirm_upload. ' +
  'Read get_service_guide first if you are new to the platform.';

export interface McpServerSetup {
  readonly version: string;
  readonly listing: readonly Tool[];
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** Shared: the SDK would otherwise compile a new Ajv per request. */
  readonly validator: jsonSchemaValidator;
  /** Told of every tool result (metrics); app tools all count under one name. */
  readonly onToolResult?: (tool: Pick<ToolDefinition, 'name' | 'metric'>, ok: boolean) => void;
}

/**
 * One low-level MCP server for one HTTP request (stateless transport). The low-level
 * `Server` rather than `McpServer`: the tool listing is precomputed once, and
 * argument validation and error results follow our own contract
 * (`{ success: false, error: { code, message } }`) instead of the SDK's plain text.
 */
export function createMcpServer(setup: McpServerSetup, ctx: ToolContext): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'Component tool server', version: setup.version },
    { capabilities: { tools: { listChanged: false }, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: setup.validator },
  );
  // The static listing, then the caller's apps (docs/mcp-apps.md, section 2).
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...setup.listing, ...(await listAppTools(ctx))] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = setup.tools.get(request.params.name);
    if (tool === undefined) {
      const shown = await callAppTool(request.params.name, request.params.arguments, ctx);
      if (shown !== null) {
        setup.onToolResult?.({ name: APP_TOOL_METRIC_NAME }, shown.isError !== true);
        return shown;
      }
      // A plain error with a JSON-RPC code: McpError would prefix "MCP error -32602:" to the message.
      throw Object.assign(new Error(`Unknown tool "${request.params.name.slice(0, 100)}". Call tools/list for the available tools.`), {
        code: ErrorCode.InvalidParams,
      });
    }
    const result = await runTool(tool, request.params.arguments, ctx);
    setup.onToolResult?.(tool, result.isError !== true);
    return result;
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listAppResources(ctx) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const app = await readAppResource(uri, ctx);
    if (app !== null) return app;
    throw unknownResource(uri, (await listAppResources(ctx)).map((resource) => resource.uri));
  });
  return server;
}

export type { StreamableHTTPServerTransport };
