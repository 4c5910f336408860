import base from './index.js';

// The dependency rule: the domain holds business rules only. Anything that does
// I/O (database, object storage, HTTP, MCP, OAuth) or any app must stay outside.
const forbidden = [
  '@prisma/*', 'prisma', 'pg', '@electric-sql/*', 'minio', '@20minutes/*',
  'express', '@modelcontextprotocol/*', 'oidc-provider', 'ioredis', 'redis',
  'node:fs', 'fs', 'node:fs/promises', 'fs/promises', 'node:http', 'http', 'node:https', 'https',
  'node:net', 'net', 'node:child_process', 'child_process',
  '@cp/db', '@cp/storage', '@cp/mcp-server', '@cp/delivery-api', '@cp/auth-server', '@cp/dashboard',
];

export default [
  ...base,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: forbidden, message: 'packages/domain must not import I/O libraries or apps (see docs/architecture.md).' },
            { group: ['**/apps/**'], message: 'packages/domain must not import an app.' },
          ],
        },
      ],
    },
  },
];
