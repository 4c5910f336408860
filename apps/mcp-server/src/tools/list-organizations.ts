import { listOrganizations as listOrganizationsUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool } from './define.js';

export const listOrganizations = defineTool({
  name: 'list_organizations',
  title: 'List organizations',
  description:
    'Lists the organizations you are a member of, with their ids. ' +
    'Use it before list_components (which needs an organizationId) or to pick the "organization" for upload_component. ' +
    'Next: list_components with one of the returned ids.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    count: z.int(),
    organizations: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  async run(_args, ctx) {
    const organizations = await listOrganizationsUseCase({ actor: actorOf(ctx) }, ctx.domain);
    return {
      count: organizations.length,
      organizations: organizations.map((organization) => ({ id: organization.id, name: organization.name })),
    };
  },
});
