import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { runTool } from '../tools/call.js';
import type { ToolContext, ToolDefinition } from '../tools/define.js';
import { findUiResource, listEntryOf, listUiResources, readResult, unknownUriMessage, type UiResources } from '../views/ui-resources.js';

export const SERVER_NAME = 'component-tool-server';

const INSTRUCTIONS =
  'Tools for the component platform. A component is one dist/index.html built by the project. ' +
  'To upload: upload_component (name/componentId/organization from service.config.json), run the returned curlCommand, then confirm_upload. ' +
  'Read get_service_guide first if you are new to the platform.';

export interface McpServerSetup {
  readonly version: string;
  readonly listing: readonly Tool[];
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** The `ui://` views of MCP Apps (views/ui-resources.ts). */
  readonly resources: UiResources;
  /** Shared: the SDK would otherwise compile a new Ajv per request. */
  readonly validator: jsonSchemaValidator;
  /** Told of every tool result (metrics). */
  readonly onToolResult?: (tool: ToolDefinition, ok: boolean) => void;
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
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: setup.validator },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...setup.listing] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = setup.tools.get(request.params.name);
    if (tool === undefined) throw invalidParams(`Unknown tool "${request.params.name.slice(0, 100)}". Call tools/list for the available tools.`);
    const result = await runTool(tool, request.params.arguments, ctx);
    setup.onToolResult?.(tool, result.isError !== true);
    return result;
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await listUiResources(setup.resources, ctx)).map(listEntryOf),
  }));
  // Hosts ask for templates once they see the resources capability; every URI is listed instead.
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = await findUiResource(setup.resources, request.params.uri, ctx);
    if (resource === null) throw invalidParams(unknownUriMessage(request.params.uri, await listUiResources(setup.resources, ctx)));
    return readResult(resource, ctx);
  });
  return server;
}

/** A plain error with a JSON-RPC code: McpError would prefix "MCP error -32602:" to the message. */
const invalidParams = (message: string): Error => Object.assign(new Error(message), { code: ErrorCode.InvalidParams });

export type { StreamableHTTPServerTransport };
