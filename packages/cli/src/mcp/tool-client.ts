import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CliError, ExitCode, exitCodeOfToolError, networkError } from '../cli/errors.js';
import type { CommandContext } from '../cli/context.js';
import { resolveAccessToken } from '../auth/resolve-access-token.js';
import type { AccessToken } from '../auth/access-token.js';
import { readVersion } from '../version.js';

/** The MCP tools the CLI calls, over the MCP SDK's client with the caller's access token. */
export interface ToolClient {
  readonly source: AccessToken['source'];
  call<T = Record<string, unknown>>(tool: string, args: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

function transportFailure(server: string, error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof StreamableHTTPError) {
    if (error.code === 401) return new CliError('AUTH_REQUIRED', 'The MCP server refused the access token (revoked or expired). Run cpc login again, or check CPC_TOKEN.', ExitCode.Auth);
    if (error.code === 403) return new CliError('FORBIDDEN', 'The MCP server refused this call: the credential lacks the scope it needs (a read-only token cannot upload or publish).', ExitCode.Forbidden);
    if (error.code === 404) return new CliError('NOT_AN_MCP_SERVER', `${server} answered 404; is it the MCP URL (ending in /mcp)?`, ExitCode.Failure);
    if (error.code === 429) return new CliError('RATE_LIMITED', 'The MCP server asks to slow down (429); try again in a minute.', ExitCode.Failure);
    if (error.code === 503) return new CliError('SERVICE_UNAVAILABLE', 'The MCP server is unavailable (HTTP 503); try again shortly.', ExitCode.Network);
    if (error.code !== undefined && error.code >= 500) return new CliError('SERVER_ERROR', `The MCP server failed (HTTP ${error.code}); try again.`, ExitCode.Failure);
  }
  if (error instanceof TypeError) return networkError('the MCP server', error);
  return new CliError('MCP_ERROR', `The MCP server call failed: ${error instanceof Error ? error.message : String(error)}`, ExitCode.Failure);
}

export async function connectTools(ctx: CommandContext): Promise<ToolClient> {
  const access = await resolveAccessToken(ctx);
  const transport = new StreamableHTTPClientTransport(new URL(ctx.server), {
    requestInit: { headers: { authorization: `Bearer ${access.token}` } },
    fetch: ctx.deps.fetch,
  });
  const client = new Client({ name: 'cpc', version: readVersion() });
  try {
    await client.connect(transport);
  } catch (error) {
    throw transportFailure(ctx.server, error);
  }
  ctx.out.debug(`connected to ${ctx.server} with a ${access.source} credential`);
  return {
    source: access.source,
    async call<T>(tool: string, args: Record<string, unknown>): Promise<T> {
      ctx.out.debug(`calling ${tool}`);
      let result;
      try {
        result = await client.callTool({ name: tool, arguments: args });
      } catch (error) {
        throw transportFailure(ctx.server, error);
      }
      const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
      if (result.isError === true) {
        const failure = (structured.error ?? {}) as { code?: unknown; message?: unknown };
        const code = typeof failure.code === 'string' ? failure.code : 'TOOL_ERROR';
        const message = typeof failure.message === 'string' ? failure.message : `${tool} failed.`;
        throw new CliError(code, message, exitCodeOfToolError(code));
      }
      return structured as T;
    },
    close: () => client.close(),
  };
}
