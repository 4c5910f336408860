/*
 * bench/ is not a workspace package: third-party modules are resolved from
 * apps/mcp-server, which declares them (the MCP SDK, express, zod).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const appRequire = createRequire(new URL('../../apps/mcp-server/package.json', import.meta.url));

const esm = async (specifier: string): Promise<any> => {
  // The ESM entry: resolve the package root, then import its ESM file.
  return import(pathToFileURL(appRequire.resolve(specifier)).href);
};

export async function sdk() {
  const [{ McpServer }, { StreamableHTTPServerTransport }, expressModule, zodModule] = await Promise.all([
    esm('@modelcontextprotocol/sdk/server/mcp.js'),
    esm('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    esm('express'),
    esm('zod'),
  ]);
  return { McpServer, StreamableHTTPServerTransport, express: expressModule.default, z: zodModule.z };
}
