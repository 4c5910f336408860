import { percentOf, startRollout as startRolloutUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, CHANGES_A_RELEASE, defineTool } from './define.js';
import { componentId, environmentName, uuid } from './params.js';
import { pendingApproval, releaseRequestShape } from './pending-approval.js';
import {
  describeRollout,
  guardInput,
  rolloutShape,
  stagesInput,
  toGuard,
  toRollout,
  toStages,
} from './rollout-shapes.js';

export const startRollout = defineTool({
  name: 'start_rollout',
  title: 'Start a canary rollout',
  description:
    'Starts a canary rollout of a version (candidateVariantId, from list_variants) in an environment: a growing share of users gets it, ' +
    'the others keep the release. Stages default to 1, 5, 25, 50 and 100 percent, 60 minutes each; give "stages" for others ' +
    '(for example [{ "percent": 5, "holdMinutes": 60 }] to stay at 5%). A guard judges the candidate every minute against the release: ' +
    "it rolls back by itself (everyone on the release) when the candidate's session error rate rises (by default 1 percentage point, z >= 3, " +
    'in 2 consecutive windows of 200 candidate sessions), pauses on two sample-ratio mismatches in a row, and advances a stage once its hold time has passed ' +
    'with enough sessions. "guard" overrides thresholds. The environment needs a release, and no experience or other rollout live (CONFLICT). ' +
    'In a protected environment a member\'s start becomes a release request ("pending_approval"). Next: get_rollout to follow it.',
  scope: Scope.Write,
  annotations: CHANGES_A_RELEASE,
  input: z.strictObject({
    componentId,
    environment: environmentName,
    candidateVariantId: uuid('candidateVariantId').describe(
      'The version to roll out, from list_variants.',
    ),
    stages: stagesInput.optional(),
    guard: guardInput,
  }),
  output: z.object({
    message: z.string(),
    status: z.enum(['started', 'pending_approval']),
    componentId: z.string(),
    environment: z.string(),
    rollout: rolloutShape.optional().describe('Only when started.'),
    request: releaseRequestShape
      .optional()
      .describe('The release request, when status is "pending_approval".'),
  }),
  async run(args, ctx) {
    const outcome = await startRolloutUseCase(
      {
        actor: actorOf(ctx),
        componentId: args.componentId,
        environment: args.environment,
        candidateVariantId: args.candidateVariantId,
        stages: toStages(args.stages),
        guard: toGuard(args.guard),
      },
      ctx.domain,
    );
    if (outcome.outcome === 'requested') {
      return {
        ...pendingApproval(outcome, `a rollout of version ${outcome.request.variantSequence}`),
        status: 'pending_approval' as const,
        componentId: args.componentId,
        environment: outcome.request.environmentName,
      };
    }
    const { rollout } = outcome;
    return {
      message: `${describeRollout(rollout)} ${percentOf(rollout.weight)} of users get the candidate; the guard checks it every minute. Call get_rollout to follow it.`,
      status: 'started' as const,
      componentId: rollout.componentId,
      environment: rollout.environmentName,
      rollout: toRollout(rollout),
    };
  },
});
