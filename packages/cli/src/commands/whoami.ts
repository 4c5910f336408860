import type { CommandContext, CommandResult } from '../cli/context.js';
import { connectTools } from '../mcp/tool-client.js';

/** whoami's `credential` (docs/tool-contract.md): an API token's or a CI policy's narrowing; null for a person's login. */
type Narrowing = Record<string, unknown> | null;

interface Whoami {
  readonly userId: string;
  readonly email: string;
  readonly scope: string;
  /** Where the access token came from. */
  readonly source: string;
  readonly credential: Narrowing;
}

export async function whoamiOf(ctx: CommandContext): Promise<Whoami> {
  const tools = await connectTools(ctx);
  try {
    const answer = await tools.call<{ userId: string; email: string; scope: string; credential?: Narrowing }>('whoami', {});
    return { userId: answer.userId, email: answer.email, scope: answer.scope, source: tools.source, credential: answer.credential ?? null };
  } finally {
    await tools.close();
  }
}

/** `cpc whoami`: the user the CLI acts as, the scopes, where its token came from (never the token) and the credential's narrowing. */
export async function whoami(ctx: CommandContext): Promise<CommandResult> {
  const user = await whoamiOf(ctx);
  return {
    data: { server: ctx.server, ...user },
    text: [
      `${user.email} (${user.userId}) on ${ctx.server}`,
      `scopes: ${user.scope}`,
      `credential: ${user.source}`,
      ...(user.credential === null ? [] : [`narrowed to: ${JSON.stringify(user.credential)}`]),
    ].join('\n'),
  };
}
