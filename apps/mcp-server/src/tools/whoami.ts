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
    'A connection made with an API token or from CI (trusted publishing) also shows the credential and what it is narrowed to. ' +
    'Next: list_organizations to find the organizations you can work in.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    authenticated: z.literal(true),
    userId: z.string(),
    email: z.string(),
    scope: z.string().describe('Space-separated scopes granted to this connection.'),
    credential: z
      .object({
        via: z.record(z.string(), z.string()).describe('"api-token" with the token\'s name, or "ci" with the policy, repository, workflow, run and commit.'),
        organizationId: z.string(),
        componentIds: z.array(z.string()).nullable().describe('null: every component of the organization.'),
        environments: z.array(z.string()).describe('Where it may release.'),
        access: z.enum(['read', 'write']),
        protectedEnvironments: z.boolean(),
      })
      .nullable()
      .describe('null: the person\'s own connection, with their role\'s rights.'),
  }),
  async run(_args, ctx) {
    const user = await getUser({ actor: actorOf(ctx) }, ctx.domain);
    const credential = ctx.principal?.credential;
    return {
      authenticated: true as const,
      userId: user.id,
      email: user.email,
      scope: ctx.principal?.scope ?? '',
      credential:
        credential === undefined
          ? null
          : {
              ...credential.scope,
              via: { ...credential.via },
              componentIds: credential.scope.componentIds === null ? null : [...credential.scope.componentIds],
              environments: [...credential.scope.environments],
            },
    };
  },
});
