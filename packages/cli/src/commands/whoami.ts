import type { CommandContext, CommandResult } from '../cli/context.js';
import { connectTools } from '../mcp/tool-client.js';

interface Whoami {
  readonly userId: string;
  readonly email: string;
  readonly scope: string;
  readonly credential: string;
}

export async function whoamiOf(ctx: CommandContext): Promise<Whoami> {
  const tools = await connectTools(ctx);
  try {
    const answer = await tools.call<{ userId: string; email: string; scope: string }>('whoami', {});
    return { userId: answer.userId, email: answer.email, scope: answer.scope, credential: tools.credential };
  } finally {
    await tools.close();
  }
}

/** `cpc whoami`: the user the CLI acts as, the scopes, and which credential it used (never the token). */
export async function whoami(ctx: CommandContext): Promise<CommandResult> {
  const user = await whoamiOf(ctx);
  return {
    data: { server: ctx.server, ...user },
    text: `${user.email} (${user.userId}) on ${ctx.server}\nscopes: ${user.scope}\ncredential: ${user.credential}`,
  };
}
