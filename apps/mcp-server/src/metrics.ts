import { createMetrics, type Counter, type Metrics, type Tally } from '@cp/http-runtime';

/** The MCP server's series, in its instance's registry (README "Operations"). */
export interface McpMetrics {
  readonly base: Metrics;
  /** get_component's in-memory cache of variant HTML. */
  readonly contentCache: Tally;
  /** `started`: upload_component succeeded; `confirmed`: confirm_upload succeeded (a repeated confirm counts again). */
  readonly uploads: Tally;
  /** Bearer tokens refused, by reason (`TokenFailureReason`, `bad_header`, `auth_server_unavailable`). */
  readonly tokenFailures: Tally;
  /** 429 answers, by budget: `user`, `ip`, `upload`. */
  readonly rateLimited: Tally;
  readonly toolCalls: Counter<'tool' | 'result'>;
}

export function createMcpMetrics(base: Metrics = createMetrics({ service: 'mcp-server' })): McpMetrics {
  return {
    base,
    contentCache: base.tally('mcp_content_cache_lookups_total', 'Reads of immutable variant HTML: hit (from memory) or miss (from the object store).', 'result', ['hit', 'miss']),
    uploads: base.tally('mcp_uploads_total', 'Uploads by stage: started (upload_component succeeded), confirmed (confirm_upload succeeded).', 'stage', ['started', 'confirmed']),
    tokenFailures: base.tally('mcp_token_failures_total', 'Bearer tokens refused (401) or not checkable (503), by reason.', 'reason'),
    rateLimited: base.tally('mcp_rate_limit_rejections_total', 'Requests refused with 429, by budget (user, ip, upload).', 'budget', ['user', 'ip', 'upload']),
    toolCalls: base.counter('mcp_tool_calls_total', 'tools/call answers by tool and result (ok, error).', ['tool', 'result']),
  };
}
