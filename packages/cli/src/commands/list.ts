import type { CommandContext, CommandResult } from '../cli/context.js';
import { CliError, ExitCode } from '../cli/errors.js';
import { connectTools, type ToolClient } from '../mcp/tool-client.js';

interface Organization {
  readonly id: string;
  readonly name: string;
  readonly role: string;
}

interface ComponentRow {
  readonly id: string;
  readonly name: string;
  readonly updatedOn: string;
  readonly variantsCount: number;
  readonly tags: string[];
}

async function allComponents(tools: ToolClient, organizationId: string, name: string | undefined): Promise<ComponentRow[]> {
  const rows: ComponentRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await tools.call<{ components: ComponentRow[]; nextCursor: string | null }>('list_components', {
      organizationId,
      ...(name === undefined ? {} : { name }),
      ...(cursor === undefined ? {} : { cursor }),
    });
    rows.push(...page.components);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return rows;
}

/** `cpc list`: the components of every organization the credential reaches (or of --org), by name. */
export async function list(ctx: CommandContext): Promise<CommandResult> {
  const org = typeof ctx.args.options.org === 'string' ? ctx.args.options.org : undefined;
  const name = typeof ctx.args.options.name === 'string' ? ctx.args.options.name : undefined;
  const tools = await connectTools(ctx);
  try {
    const { organizations } = await tools.call<{ organizations: Organization[] }>('list_organizations', {});
    const chosen = org === undefined ? organizations : organizations.filter((o) => o.id === org || o.name.toLowerCase() === org.toLowerCase());
    if (org !== undefined && chosen.length === 0) {
      throw new CliError('NOT_FOUND', `No organization "${org}" among yours (${organizations.map((o) => o.name).join(', ') || 'none'}).`, ExitCode.NotFound);
    }
    const result = [];
    for (const organization of chosen) result.push({ ...organization, components: await allComponents(tools, organization.id, name) });
    const text = result
      .map((o) => [`${o.name} (${o.id}, ${o.role})`, ...(o.components.length === 0 ? ['  no components'] : o.components.map((c) => `  ${c.id}  ${c.name}  ${c.variantsCount} version(s)`))].join('\n'))
      .join('\n');
    return { data: { organizations: result }, text };
  } finally {
    await tools.close();
  }
}
