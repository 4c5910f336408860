import type { CommandContext, CommandResult } from '../cli/context.js';
import { usageError } from '../cli/errors.js';
import { connectTools } from '../mcp/tool-client.js';

interface VariantRow {
  readonly variantId: string;
  readonly sequence: number;
  readonly environments: string[];
  readonly [field: string]: unknown;
}

export const requiredComponent = (ctx: CommandContext): string => {
  const component = ctx.args.options.component;
  if (typeof component !== 'string') throw usageError(`--component <id> is required. Usage: cpc ${ctx.args.command} --component <id>`);
  return component;
};

/** `cpc variants --component <id>`: every version, newest first, and where each is released. */
export async function variants(ctx: CommandContext): Promise<CommandResult> {
  const componentId = requiredComponent(ctx);
  const tools = await connectTools(ctx);
  try {
    const rows: VariantRow[] = [];
    let componentName = '';
    let before: number | null = null;
    do {
      const page: { componentName: string; variants: VariantRow[]; nextBeforeSequence: number | null } = await tools.call('list_variants', {
        componentId,
        limit: 100,
        ...(before === null ? {} : { beforeSequence: before }),
      });
      componentName = page.componentName;
      rows.push(...page.variants);
      before = page.nextBeforeSequence;
    } while (before !== null);
    const text = [`${componentName} (${componentId})`, ...rows.map((v) => `  v${v.sequence}  ${v.variantId}${v.environments.length > 0 ? `  released: ${v.environments.join(', ')}` : ''}`)].join('\n');
    return { data: { componentId, componentName, variants: rows }, text };
  } finally {
    await tools.close();
  }
}
