import { getVariantContent } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool } from './define.js';
import { componentId, uuid } from './params.js';

/**
 * The preview view's fallback when the host SDK cannot be loaded from the delivery API
 * (docs/mcp-apps.md, section 1): the view renders the version's HTML itself. Only the view calls it,
 * so the HTML stays out of the results the model reads; the answer is as large as the file.
 */
export const getVariantHtml = defineTool({
  name: 'get_variant_html',
  title: 'HTML of a version',
  description:
    'For the component preview view: the HTML of one version of a component, for when the delivery API is not reachable ' +
    'from the client. The answer is as large as the uploaded file (up to the upload limit, MAX_UPLOAD_BYTES, 5 MiB by default). ' +
    'To read a component, use get_component.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { visibility: ['app'] },
  input: z.strictObject({
    componentId,
    variantId: uuid('variantId').describe('The version (UUID), as get_component, list_variants or get_release_choices return it.'),
  }),
  output: z.object({
    componentId: z.string(),
    variantId: z.string(),
    sequence: z.int(),
    html: z.string().describe('The stored file, as uploaded.'),
  }),
  async run(args, ctx) {
    const { variant, content } = await getVariantContent({ actor: actorOf(ctx), componentId: args.componentId, variantId: args.variantId }, ctx.domain);
    return { componentId: variant.componentId, variantId: variant.id, sequence: variant.sequence, html: new TextDecoder().decode(content) };
  },
});
