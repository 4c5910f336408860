import { createMetrics, type Counter, type Metrics, type Tally } from '@cp/http-runtime';
import { TOOL_BUDGET_WHAT } from './rate-limit/limiter.js';

const UPLOAD_STAGES = ['started', 'confirmed'] as const;
/** The stages of `mcp_uploads_total`. */
export type UploadStage = (typeof UPLOAD_STAGES)[number];

/** What a tool's successful call counts besides `mcp_tool_calls_total` (ToolDefinition.metric). */
export interface ToolMetric {
  readonly uploads: UploadStage;
}

/** The MCP server's series, in its instance's registry (docs/operations.md). */
export interface McpMetrics {
  readonly base: Metrics;
  /** get_component's in-memory cache of variant HTML. */
  readonly contentCache: Tally;
  /** By stage, counted by the tools that declare it (a repeated confirm counts again). */
  readonly uploads: Tally;
  /** Bearer tokens refused, by reason (`TokenFailureReason`, `bad_header`, `auth_server_unavailable`). */
  readonly tokenFailures: Tally;
  /** 429 answers, by budget: `user`, `ip`, and each tool budget (`upload`). */
  readonly rateLimited: Tally;
  readonly toolCalls: Counter<'tool' | 'result'>;
}

export function createMcpMetrics(base: Metrics = createMetrics({ service: 'mcp-server' })): McpMetrics {
  return {
    base,
    contentCache: base.tally('mcp_content_cache_lookups_total', 'Reads of immutable variant HTML: hit (from memory) or miss (from the object store).', 'result', ['hit', 'miss']),
    uploads: base.tally('mcp_uploads_total', 'Uploads by stage: started (upload_component succeeded), confirmed (confirm_upload succeeded).', 'stage', UPLOAD_STAGES),
    tokenFailures: base.tally('mcp_token_failures_total', 'Bearer tokens refused (401) or not checkable (503), by reason.', 'reason'),
    rateLimited: base.tally('mcp_rate_limit_rejections_total', 'Requests refused with 429, by budget (user, ip, upload).', 'budget', ['user', 'ip', ...Object.keys(TOOL_BUDGET_WHAT)]),
    toolCalls: base.counter('mcp_tool_calls_total', 'tools/call answers by tool and result (ok, error).', ['tool', 'result']),
  };
}

/** Counts each tools/call answer, and what the tool declares its success counts (McpServerSetup.onToolResult). */
export const toolResultCounter =
  (metrics: McpMetrics) =>
  (tool: { readonly name: string; readonly metric?: ToolMetric }, ok: boolean): void => {
    metrics.toolCalls.inc({ tool: tool.name, result: ok ? 'ok' : 'error' });
    if (ok && tool.metric !== undefined) metrics.uploads.inc(tool.metric.uploads);
  };
