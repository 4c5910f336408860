import { Limits, listComponents as listComponentsUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool, isoTime } from './define.js';

export const listComponents = defineTool({
  name: 'list_components',
  title: 'List components',
  description:
    'Lists the components of one organization, ordered by name, optionally filtered by a case-insensitive name fragment. ' +
    `Returns at most "limit" components (default ${Limits.listDefault}, max ${Limits.listMax}); when "nextCursor" is not null, ` +
    'call again with the same organizationId and name and cursor=nextCursor for the next page. ' +
    'Next: get_component with a component id to read it.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    organizationId: z
      .string({ error: 'organizationId must be a string (an id from list_organizations).' })
      .min(1, { error: 'organizationId must not be empty; get one from list_organizations.' })
      .max(200, { error: 'organizationId must be at most 200 characters.' })
      .describe('Organization id, from list_organizations.'),
    name: z
      .string({ error: 'name must be a string.' })
      .max(Limits.componentNameMaxLength, { error: `name must be at most ${Limits.componentNameMaxLength} characters.` })
      .optional()
      .describe('Only components whose name contains this text (case-insensitive).'),
    limit: z
      .int({ error: `limit must be an integer from 1 to ${Limits.listMax}.` })
      .min(1, { error: `limit must be an integer from 1 to ${Limits.listMax}.` })
      .max(Limits.listMax, { error: `limit must be an integer from 1 to ${Limits.listMax}.` })
      .optional()
      .describe(`Maximum number of components to return (default ${Limits.listDefault}, max ${Limits.listMax}).`),
    cursor: z
      .string({ error: 'cursor must be a string (the nextCursor of a previous call).' })
      .min(1, { error: 'cursor must not be empty; omit it for the first page.' })
      .max(1000, { error: 'cursor must be at most 1000 characters.' })
      .optional()
      .describe('The nextCursor of the previous page; omit for the first page.'),
  }),
  output: z.object({
    count: z.int(),
    components: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string(),
        updatedOn: z.string().describe('ISO 8601 UTC with milliseconds.'),
        variantsCount: z.int(),
        tags: z.array(z.string()),
      }),
    ),
    nextCursor: z.string().nullable().describe('Pass as "cursor" to get the next page; null on the last page.'),
  }),
  async run(args, ctx) {
    const page = await listComponentsUseCase(
      { actor: actorOf(ctx), organizationId: args.organizationId, name: args.name, limit: args.limit, cursor: args.cursor },
      ctx.domain,
    );
    return {
      count: page.components.length,
      components: page.components.map((component) => ({
        id: component.id,
        name: component.name,
        description: component.description,
        updatedOn: isoTime(component.updatedAt),
        variantsCount: component.variantsCount,
        tags: [...component.tags],
      })),
      nextCursor: page.nextCursor,
    };
  },
});
