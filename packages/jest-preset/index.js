// Shared jest settings: ESM TypeScript through @swc/jest. Run jest with
// NODE_OPTIONS=--experimental-vm-modules (oidc-provider and jose are ESM-only).
// Workspace packages resolve to their TypeScript sources through the `source`
// export condition, so tests never depend on a previous build.
export default {
  testEnvironment: 'node',
  // Test files open real databases (PGlite, or a PostgreSQL database from a template),
  // S3 servers and HTTP servers: seconds on a busy 2-core machine, too tight for jest's 5 s.
  testTimeout: 30_000,
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // The `source` condition also matches third-party packages that publish their
  // TypeScript sources under it (eventsource-parser, used by the MCP SDK client):
  // let swc transform those instead of skipping node_modules.
  transformIgnorePatterns: ['^(?!.*/eventsource-parser/).*/node_modules/'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
};
