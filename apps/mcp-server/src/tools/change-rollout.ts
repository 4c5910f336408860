import { changeRollout as changeRolloutUseCase, type RolloutAction } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, CHANGES_A_RELEASE, defineTool } from './define.js';
import { componentId, environmentName } from './params.js';
import { describeRollout, rolloutShape, toRollout } from './rollout-shapes.js';
import { rereadOnConflict } from './stale-revision.js';

const ACTIONS = ['advance', 'pause', 'resume'] as const satisfies readonly RolloutAction[];

export const expectedRevision = z
  .int({
    error: 'expectedRevision must be the rollout revision you last read (get_rollout answers it).',
  })
  .min(1, {
    error: 'expectedRevision must be the rollout revision you last read (get_rollout answers it).',
  })
  .describe(
    'The rollout revision you last read (get_rollout); if the rollout changed since, CONFLICT: read it again.',
  );

export const changeRollout = defineTool({
  name: 'change_rollout',
  title: 'Advance, pause or resume a rollout',
  description:
    'Moves the live rollout of a component in an environment: "advance" to the next stage now (in a protected environment owners and admins only), ' +
    '"pause" (nothing advances; the guard still judges and can roll back), "resume". expectedRevision is the revision get_rollout answered: ' +
    'if the rollout changed since (the guard advanced it or closed a window, someone else changed it), the call answers CONFLICT and changes nothing. ' +
    'To end it use stop_rollout; to release the candidate, promote_rollout.',
  scope: Scope.Write,
  annotations: CHANGES_A_RELEASE,
  input: z.strictObject({
    componentId,
    environment: environmentName,
    action: z.enum(ACTIONS, { error: 'action must be "advance", "pause" or "resume".' }),
    expectedRevision,
  }),
  output: z.object({
    message: z.string(),
    componentId: z.string(),
    environment: z.string(),
    rollout: rolloutShape,
  }),
  async run(args, ctx) {
    const rollout = await rereadOnConflict(args.expectedRevision, () =>
      changeRolloutUseCase(
        {
          actor: actorOf(ctx),
          componentId: args.componentId,
          environment: args.environment,
          action: args.action,
          expectedRevision: args.expectedRevision,
        },
        ctx.domain,
      ),
    );
    return {
      message: describeRollout(rollout),
      componentId: rollout.componentId,
      environment: rollout.environmentName,
      rollout: toRollout(rollout),
    };
  },
});
