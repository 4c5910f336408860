/**
 * `pnpm start`: the whole stack on embedded defaults in one process (see stack.ts).
 * Data lives under `.data/` at the repository root; delete it to start afresh.
 */
import { findRepositoryRoot } from '@cp/db';
import { startStack } from './stack.js';

const port = Number(process.env.S3_EMBEDDED_PORT ?? 4400);
// STACK_ROOT: another folder for `.data/` (a throwaway stack beside the developer's own).
const root = process.env.STACK_ROOT ?? findRepositoryRoot() ?? process.cwd();

try {
  const stack = await startStack({ source: process.env, root, s3Port: port });
  const byName = new Map(stack.services.map((service) => [service.name, service.url]));
  const mcpUrl = byName.get('MCP server') ?? '';
  const deliveryUrl = byName.get('Delivery API') ?? '';
  const lines = [
    '',
    'Component platform is running (embedded PGlite and S3 under .data/):',
    ...stack.services.map((service) => `  ${service.name.padEnd(14)} ${service.url}`),
    `  ${'S3 (embedded)'.padEnd(14)} ${stack.s3Endpoint}`,
    '',
    'Connect your assistant to the MCP server (it signs you up or in on first use):',
    `  Claude Code:  claude mcp add --transport http components ${mcpUrl}`,
    `  Other clients: add an HTTP MCP server with the URL ${mcpUrl}`,
    `  Guide:        ${new URL(mcpUrl).origin}/guide`,
    '',
    'Show a released component on any web page (the dashboard gives each component\'s lines):',
    `  <script type="module" src="${deliveryUrl}/host/v1.js"></script>`,
    `  <cp-component component-id="<id>" env="prod"></cp-component>`,
    `  Try it:       ${deliveryUrl}/examples/host`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
  const stop = (signal: string) => {
    process.stdout.write(`\n${signal}: stopping\n`);
    void stack.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  process.stderr.write(`Cannot start the stack: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
