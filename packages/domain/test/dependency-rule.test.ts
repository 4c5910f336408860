import { readFileSync } from 'node:fs';

// The lint rule stops imports; this stops the dependency from being declared at all.
describe('packages/domain dependencies', () => {
  it('lists no I/O library and no app', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const forbidden = /^(@prisma\/|prisma$|pg$|@electric-sql\/|minio$|@20minutes\/|express$|@modelcontextprotocol\/|oidc-provider$|ioredis$|redis$|@cp\/(db|storage|mcp-server|delivery-api|auth-server|dashboard)$)/;
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => forbidden.test(name))).toEqual([]);
  });
});
