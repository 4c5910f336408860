import { publishVariant, type RequestedRelease } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, componentPageUrl, defineTool, isoTime } from './define.js';
import { componentId, environmentName, uuid } from './params.js';
import { pendingApproval, releaseRequestShape } from './pending-approval.js';
import { PREVIEW_VIEW_UI } from '../views/preview-view.js';

export const publishComponent = defineTool({
  name: 'publish_component',
  title: 'Publish component to an environment',
  description:
    'Releases a version of a component to an environment (for example "staging" or "prod"); hosts reading /consume?env=<environment> get it from then on. ' +
    'Without variantId the latest version is released. Publishing an earlier variantId (see list_variants) is the rollback. ' +
    'Every release is recorded in the history. ' +
    "A protected environment (prod in a new organization) takes releases only from the organization's owners and admins: " +
    'a member\'s publish there becomes a release request (status "pending_approval", with the request id and who can approve it) ' +
    'that an owner or admin approves or declines in the dashboard; publishing again while it is pending answers with the same request. ' +
    'Viewers cannot publish (FORBIDDEN).',
  scope: Scope.Write,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  ui: PREVIEW_VIEW_UI,
  input: z.strictObject({
    componentId,
    environment: environmentName,
    variantId: uuid('variantId')
      .optional()
      .describe('The version to release, from list_variants; default: the latest.'),
  }),
  output: z.object({
    message: z.string(),
    status: z
      .enum(['released', 'pending_approval'])
      .describe('"pending_approval": nothing is released yet; an owner or admin decides the request.'),
    componentId: z.string(),
    componentName: z.string(),
    environment: z.string(),
    variantId: z.string(),
    sequence: z.int(),
    previousVariantId: z
      .string()
      .nullable()
      .optional()
      .describe('What the environment served before; publish it to roll back. Only when released.'),
    releasedAt: z.string().optional().describe('Only when released.'),
    request: releaseRequestShape
      .optional()
      .describe('The release request, when status is "pending_approval".'),
    dashboardUrl: z.string(),
  }),
  async run(args, ctx) {
    const outcome = await publishVariant(
      {
        actor: actorOf(ctx),
        componentId: args.componentId,
        environment: args.environment,
        variantId: args.variantId,
      },
      ctx.domain,
    );
    const dashboardUrl = componentPageUrl(ctx, args.componentId);
    if (outcome.outcome === 'requested') return { ...pendingRelease(outcome), dashboardUrl };
    const { event, variant, component } = outcome;
    const unchanged = event.previousVariantId === event.variantId;
    return {
      message: unchanged
        ? `Version ${variant.sequence} was already released to "${event.environmentName}"; it stays released.`
        : `Version ${variant.sequence} is now released to "${event.environmentName}".`,
      status: 'released' as const,
      componentId: event.componentId,
      componentName: component.name,
      environment: event.environmentName,
      variantId: event.variantId,
      sequence: variant.sequence,
      previousVariantId: event.previousVariantId,
      releasedAt: isoTime(event.releasedAt),
      dashboardUrl,
    };
  },
});

/** A member's publish to a protected environment: the request, and whom the user can ask. */
function pendingRelease(outcome: RequestedRelease) {
  const { request } = outcome;
  return {
    ...pendingApproval(outcome, `version ${request.variantSequence}`),
    status: 'pending_approval' as const,
    componentId: request.componentId,
    componentName: request.componentName,
    environment: request.environmentName,
    variantId: request.variantId,
    sequence: request.variantSequence,
  };
}
