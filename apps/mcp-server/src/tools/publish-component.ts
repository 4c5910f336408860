import { publishVariant } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool, isoTime } from './define.js';
import { componentId, environmentName, uuid } from './params.js';

export const publishComponent = defineTool({
  name: 'publish_component',
  title: 'Publish component to an environment',
  description:
    'Releases a version of a component to an environment (for example "staging" or "prod"); hosts reading /consume?env=<environment> get it from then on. ' +
    'Without variantId the latest version is released. Publishing an earlier variantId (see list_variants) is the rollback. ' +
    'Every release is recorded in the history. ' +
    "A protected environment (prod in a new organization) takes releases only from the organization's owners and admins: " +
    'anyone else gets ENVIRONMENT_PROTECTED, whose message names who can publish there and the environments open to you.',
  scope: Scope.Write,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: z.strictObject({
    componentId,
    environment: environmentName,
    variantId: uuid('variantId')
      .optional()
      .describe('The version to release, from list_variants; default: the latest.'),
  }),
  output: z.object({
    message: z.string(),
    componentId: z.string(),
    environment: z.string(),
    variantId: z.string(),
    sequence: z.int(),
    previousVariantId: z
      .string()
      .nullable()
      .describe('What the environment served before; publish it to roll back.'),
    releasedAt: z.string(),
  }),
  async run(args, ctx) {
    const { event, variant } = await publishVariant(
      {
        actor: actorOf(ctx),
        componentId: args.componentId,
        environment: args.environment,
        variantId: args.variantId,
      },
      ctx.domain,
    );
    const unchanged = event.previousVariantId === event.variantId;
    return {
      message: unchanged
        ? `Version ${variant.sequence} was already released to "${event.environmentName}"; it stays released.`
        : `Version ${variant.sequence} is now released to "${event.environmentName}".`,
      componentId: event.componentId,
      environment: event.environmentName,
      variantId: event.variantId,
      sequence: variant.sequence,
      previousVariantId: event.previousVariantId,
      releasedAt: isoTime(event.releasedAt),
    };
  },
});
