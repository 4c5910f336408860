import { stopRollout as stopRolloutUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, CHANGES_A_RELEASE, defineTool } from './define.js';
import { componentId, environmentName } from './params.js';
import { describeRollout, rolloutShape, toRollout } from './rollout-shapes.js';

/** As the use case keeps it (stop-rollout.ts). */
const MAX_REASON_LENGTH = 500;

export const stopRollout = defineTool({
  name: 'stop_rollout',
  title: 'Stop a rollout',
  description:
    'The kill switch: stops the live rollout of a component in an environment at once; everyone gets the release again. ' +
    'Needs no expected revision and no approval, protected environments included (making things safer is never held up). ' +
    'Give a reason: it is kept in the audit trail and shown with the rollout.',
  scope: Scope.Write,
  annotations: CHANGES_A_RELEASE,
  input: z.strictObject({
    componentId,
    environment: environmentName,
    reason: z
      .string({ error: 'reason must be a string.' })
      .max(MAX_REASON_LENGTH, { error: `reason must be at most ${MAX_REASON_LENGTH} characters.` })
      .optional()
      .describe('Why, in words for the people who read the audit trail.'),
  }),
  output: z.object({
    message: z.string(),
    componentId: z.string(),
    environment: z.string(),
    rollout: rolloutShape,
  }),
  async run(args, ctx) {
    const rollout = await stopRolloutUseCase(
      {
        actor: actorOf(ctx),
        componentId: args.componentId,
        environment: args.environment,
        reason: args.reason,
      },
      ctx.domain,
    );
    return {
      message: describeRollout(rollout),
      componentId: rollout.componentId,
      environment: rollout.environmentName,
      rollout: toRollout(rollout),
    };
  },
});
