import { listOrganizations as listOrganizationsUseCase, Role } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool } from './define.js';

export const listOrganizations = defineTool({
  name: 'list_organizations',
  title: 'List organizations',
  description:
    'Lists the organizations you are a member of, with their ids and your role in each ' +
    '(viewer: reads only; member: also uploads, tags, publishes to unprotected environments; admin and owner: also protected environments). ' +
    'Use it before list_components (which needs an organizationId) or to pick the "organization" for upload_component. ' +
    'Next: list_components with one of the returned ids.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    count: z.int(),
    organizations: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        role: z.enum(Role).describe('Your role in this organization: what the write tools let you do there.'),
      }),
    ),
  }),
  async run(_args, ctx) {
    const organizations = await listOrganizationsUseCase({ actor: actorOf(ctx) }, ctx.domain);
    return {
      count: organizations.length,
      organizations: organizations.map((organization) => ({ id: organization.id, name: organization.name, role: organization.role })),
    };
  },
});
