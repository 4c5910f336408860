import { APP_TOOL_PREFIX } from '@cp/domain';
import { z } from 'zod';
import { Scope, SUPPORTED_SCOPES } from '../src/auth/scopes.js';
import { defineTool } from '../src/tools/define.js';
import { TOOLS, toolsByName } from '../src/tools/registry.js';

/*
 * What a tool definition must declare. The compile-time half is checked by
 * `pnpm typecheck` (this file is in tsconfig's include): each @ts-expect-error
 * fails the typecheck if its definition ever compiles.
 */

const definition = { name: 'example', title: 'Example', description: 'An example.', input: z.strictObject({}), output: z.object({}) };
const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const run = async () => ({});

describe('a tool definition', () => {
  test('without a scope does not compile (nothing would gate it)', () => {
    // @ts-expect-error scope is required: a tool nobody classified must not be callable with any token
    const unscoped = defineTool({ ...definition, annotations, run });
    expect(unscoped.name).toBe('example');
  });

  test('with "any token" as its scope does not compile (a tool names the scope it needs)', () => {
    // @ts-expect-error 'token' is the requirement of methods, not a tool scope
    const anyToken = defineTool({ ...definition, scope: 'token', annotations, run });
    expect(anyToken.name).toBe('example');
  });

  test('with an unknown budget or metric does not compile', () => {
    // @ts-expect-error budgets are the ones rate-limit/limiter.ts creates
    defineTool({ ...definition, scope: 'mcp:read', budget: 'downloads', annotations, run });
    // @ts-expect-error metrics are the series metrics.ts declares
    defineTool({ ...definition, scope: 'mcp:read', metric: { uploads: 'abandoned' }, annotations, run });
  });
});

describe('the registry', () => {
  const everyTool = TOOLS.map((tool) => [tool.name, tool] as const);

  test.each(everyTool)('%s declares a scope the gate knows', (_name, tool) => {
    expect(['public', ...SUPPORTED_SCOPES]).toContain(tool.scope);
  });

  test.each(everyTool)('%s needs mcp:write exactly when it is not read-only', (_name, tool) => {
    expect(tool.scope === Scope.Write).toBe(!tool.annotations.readOnlyHint);
  });

  test('names are unique, so toolsByName holds every tool', () => {
    expect(toolsByName.size).toBe(TOOLS.length);
  });

  test.each(everyTool)('%s is not named as an app tool (show_…), which the gate and the server take for one of the caller\'s apps', (name) => {
    expect(name.startsWith(APP_TOOL_PREFIX)).toBe(false);
  });
});
