/**
 * The baseline: the MCP SDK's minimal stateless Streamable HTTP server (as in the
 * SDK's own stateless example) with one trivial `echo` tool. Same SDK, same
 * transport, no auth, no database: the ceiling our server is compared with.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sdk } from './resolve.js';

export async function startBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const { McpServer, StreamableHTTPServerTransport, express, z } = await sdk();
  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req: any, res: any) => {
    const server = new McpServer({ name: 'baseline', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes a message.', inputSchema: { message: z.string() } }, async ({ message }: { message: string }) => ({
      content: [{ type: 'text', text: message }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
