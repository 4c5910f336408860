import { getComponent as getComponentUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, componentPageUrl, defineTool, isoTime } from './define.js';
import { componentId, environmentName } from './params.js';
import { componentShape, toComponent, toVariant, variantShape } from './shapes.js';
import { PREVIEW_VIEW_UI } from '../views/preview-view.js';

export const getComponent = defineTool({
  name: 'get_component',
  title: 'Get component',
  description:
    'Reads one component: its metadata and, by default, the HTML of its latest version (or of the version released to "environment"). ' +
    'Set includeContent=false for a fast metadata-only read (then latestVariant, resolvedEnvironment and htmlContent are null). ' +
    'Next: edit_component_tags to change tags, list_variants to see versions, upload_component to add a version.',
  scope: Scope.Read,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  ui: PREVIEW_VIEW_UI,
  input: z.strictObject({
    componentId,
    environment: environmentName
      .optional()
      .describe(
        'Return the version released to this environment (for example "prod") instead of the latest.',
      ),
    includeContent: z
      .boolean({ error: 'includeContent must be true or false.' })
      .optional()
      .describe('Default true. false skips the version and its HTML.'),
  }),
  output: z.object({
    component: componentShape,
    resolvedEnvironment: z
      .object({
        name: z.string(),
        protected: z
          .boolean()
          .describe(
            'Only owners and admins of the organization publish to a protected environment.',
          ),
        variantId: z.string(),
        releasedAt: z.string(),
      })
      .nullable()
      .describe(
        'The environment asked for and its release; null without "environment" or with includeContent=false.',
      ),
    latestVariant: variantShape
      .nullable()
      .describe(
        'The version whose HTML is returned; null with includeContent=false or before the first upload.',
      ),
    htmlContent: z.string().nullable(),
    dashboardUrl: z.string(),
  }),
  async run(args, ctx) {
    const includeContent = args.includeContent ?? true;
    const result = await getComponentUseCase(
      {
        actor: actorOf(ctx),
        componentId: args.componentId,
        environment: args.environment,
        includeContent,
      },
      ctx.domain,
    );
    return {
      component: toComponent(result.component),
      resolvedEnvironment:
        includeContent && result.environment !== null && result.release !== null
          ? {
              name: result.environment.name,
              protected: result.environment.protected,
              variantId: result.release.variantId,
              releasedAt: isoTime(result.release.releasedAt),
            }
          : null,
      latestVariant: includeContent && result.variant !== null ? toVariant(result.variant) : null,
      htmlContent: includeContent ? result.html : null,
      dashboardUrl: componentPageUrl(ctx, result.component.id),
    };
  },
});
