import { listVariants as listVariantsUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, componentPageUrl, defineTool } from './define.js';
import { componentId } from './params.js';
import { toVariant, variantShape } from './shapes.js';
import { PREVIEW_VIEW_UI } from '../views/preview-view.js';

const LIST_VARIANTS_MAX = 100;

export const listVariants = defineTool({
  name: 'list_variants',
  title: 'List versions',
  description:
    'Lists the versions (variants) of a component, newest first, with size, sha256, creation time and the environments each is released to. ' +
    'When "nextBeforeSequence" is not null, call again with beforeSequence=nextBeforeSequence for older versions. ' +
    'Next: publish_component with a variantId to release it (publishing an earlier one is a rollback).',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: PREVIEW_VIEW_UI,
  input: z.strictObject({
    componentId,
    limit: z
      .int({ error: `limit must be an integer from 1 to ${LIST_VARIANTS_MAX}.` })
      .min(1, { error: `limit must be an integer from 1 to ${LIST_VARIANTS_MAX}.` })
      .max(LIST_VARIANTS_MAX, { error: `limit must be an integer from 1 to ${LIST_VARIANTS_MAX}.` })
      .optional()
      .describe(`Maximum number of versions (default 20, max ${LIST_VARIANTS_MAX}).`),
    beforeSequence: z
      .int({ error: 'beforeSequence must be a positive integer (a nextBeforeSequence from a previous call).' })
      .min(1, { error: 'beforeSequence must be a positive integer (a nextBeforeSequence from a previous call).' })
      .optional()
      .describe('Only versions older than this sequence number; the nextBeforeSequence of the previous page.'),
  }),
  output: z.object({
    componentId: z.string(),
    componentName: z.string(),
    count: z.int(),
    variants: z.array(variantShape.extend({ environments: z.array(z.string()).describe('Environments this version is released to.') })),
    nextBeforeSequence: z.int().nullable(),
    dashboardUrl: z.string(),
  }),
  async run(args, ctx) {
    const page = await listVariantsUseCase(
      { actor: actorOf(ctx), componentId: args.componentId, limit: args.limit ?? 20, beforeSequence: args.beforeSequence },
      ctx.domain,
    );
    return {
      componentId: args.componentId,
      componentName: page.component.name,
      count: page.variants.length,
      variants: page.variants.map(({ variant, environments }) => ({ ...toVariant(variant), environments: [...environments] })),
      nextBeforeSequence: page.nextBeforeSequence,
      dashboardUrl: componentPageUrl(ctx, args.componentId),
    };
  },
});
