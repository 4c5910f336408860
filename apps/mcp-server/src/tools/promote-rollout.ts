import { promoteRollout as promoteRolloutUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { expectedRevision } from './change-rollout.js';
import { actorOf, CHANGES_A_RELEASE, defineTool } from './define.js';
import { componentId, environmentName } from './params.js';
import { pendingApproval, releaseRequestShape } from './pending-approval.js';
import { describeRollout, rolloutShape, toRollout } from './rollout-shapes.js';
import { rereadOnConflict } from './stale-revision.js';

export const promoteRollout = defineTool({
  name: 'promote_rollout',
  title: 'Promote a rollout',
  description:
    'Releases the candidate of the live rollout to the environment through the normal publish path (history, audit, release.published webhook) ' +
    'and ends the rollout as promoted: everyone gets the candidate. expectedRevision is the revision get_rollout answered (CONFLICT if it changed since). ' +
    'In a protected environment a member\'s promote becomes a release request ("pending_approval"); its approval promotes.',
  scope: Scope.Write,
  annotations: CHANGES_A_RELEASE,
  input: z.strictObject({ componentId, environment: environmentName, expectedRevision }),
  output: z.object({
    message: z.string(),
    status: z.enum(['promoted', 'pending_approval']),
    componentId: z.string(),
    environment: z.string(),
    rollout: rolloutShape.optional().describe('Only when promoted.'),
    request: releaseRequestShape
      .optional()
      .describe('The release request, when status is "pending_approval".'),
  }),
  async run(args, ctx) {
    const outcome = await rereadOnConflict(args.expectedRevision, () =>
      promoteRolloutUseCase(
        {
          actor: actorOf(ctx),
          componentId: args.componentId,
          environment: args.environment,
          expectedRevision: args.expectedRevision,
        },
        ctx.domain,
      ),
    );
    if (outcome.outcome === 'requested') {
      return {
        ...pendingApproval(
          outcome,
          `releasing the candidate, version ${outcome.request.variantSequence}`,
        ),
        status: 'pending_approval' as const,
        componentId: args.componentId,
        environment: outcome.request.environmentName,
      };
    }
    const { rollout } = outcome;
    return {
      message: `${describeRollout(rollout)} ${rollout.candidateVariantId} is now the release of ${rollout.environmentName}.`,
      status: 'promoted' as const,
      componentId: rollout.componentId,
      environment: rollout.environmentName,
      rollout: toRollout(rollout),
    };
  },
});
