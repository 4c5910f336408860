// The cpc entry point is main.ts (scripts/build.mjs bundles it into dist/cpc.js); this is its runner, for tests.
export { runCli } from './cli/run.js';
export type { CliDeps } from './cli/context.js';
export { ExitCode } from './cli/errors.js';
