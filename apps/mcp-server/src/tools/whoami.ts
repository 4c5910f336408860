import { getUser } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool } from './define.js';

export const whoami = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    'Shows which user this connection is signed in as and which scopes it was granted (mcp:read, mcp:write). ' +
    'Use it to check the connection works or to see why a write tool is refused. ' +
    'Next: list_organizations to find the organizations you can work in.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    authenticated: z.literal(true),
    userId: z.string(),
    email: z.string(),
    scope: z.string().describe('Space-separated scopes granted to this connection.'),
  }),
  async run(_args, ctx) {
    const user = await getUser({ actor: actorOf(ctx) }, ctx.domain);
    return { authenticated: true as const, userId: user.id, email: user.email, scope: ctx.principal?.scope ?? '' };
  },
});
