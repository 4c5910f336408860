import {
  percentOf,
  publishExperience as publishExperienceUseCase,
  type SplitPhase,
} from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, CHANGES_A_RELEASE, defineTool, isoTime } from './define.js';
import { describeSegments } from './experience-shapes.js';
import { componentId, environmentName } from './params.js';
import { pendingApproval, releaseRequestShape } from './pending-approval.js';
import { percentNumber } from './percent.js';

const PHASES = ['keep', 'new'] as const satisfies readonly SplitPhase[];

const revisionNumber = (field: string) =>
  z
    .int({ error: `${field} must be a revision number (1, 2, ...) from get_experience.` })
    .min(1, { error: `${field} must be a revision number (1, 2, ...) from get_experience.` });

export const publishExperience = defineTool({
  name: 'publish_experience',
  title: 'Publish experience',
  description:
    'Publishes the experience draft of a component in an environment as a new immutable revision, live at once (or, with "revision", ' +
    're-publishes an earlier revision from get_experience as a new one: the rollback). Publishing a draft with no segments turns the experience off. ' +
    'The release stays the fallback, so the environment needs one; a live rollout there blocks it (CONFLICT). ' +
    'phase "keep" (default) keeps every user\'s bucket: only users whose arm changed share move, and "moved" says how many per segment; ' +
    'phase "new" draws everyone again. Pass expectedLive (the live revision you read, null for none) so that a publish made meanwhile ' +
    "answers CONFLICT instead of being overwritten. In a protected environment a member's publish becomes a release request " +
    '(status "pending_approval"). Viewers cannot publish (FORBIDDEN).',
  scope: Scope.Write,
  annotations: CHANGES_A_RELEASE,
  input: z.strictObject({
    componentId,
    environment: environmentName,
    phase: z
      .enum(PHASES, { error: 'phase must be "keep" or "new".' })
      .optional()
      .describe(
        '"keep" (default): users keep their bucket; "new": a new phase, everyone is assigned again.',
      ),
    revision: revisionNumber('revision')
      .optional()
      .describe('Re-publish this earlier revision instead of the draft.'),
    expectedLive: revisionNumber('expectedLive')
      .nullable()
      .optional()
      .describe(
        'The live revision number you read (null: none was published); a different one answers CONFLICT.',
      ),
  }),
  output: z.object({
    message: z.string(),
    status: z
      .enum(['published', 'pending_approval'])
      .describe('"pending_approval": nothing changed yet; an owner or admin decides the request.'),
    componentId: z.string(),
    environment: z.string(),
    revision: z.int().optional().describe('The new revision. Only when published.'),
    republishedFrom: z.int().nullable().optional(),
    publishedAt: z.string().optional(),
    moved: z
      .array(
        z.object({
          segment: z.string(),
          percent: z.number().describe("Share of the segment's users whose variant changed."),
        }),
      )
      .optional()
      .describe('With phase "keep", per segment kept by name.'),
    request: releaseRequestShape
      .optional()
      .describe('The release request, when status is "pending_approval".'),
  }),
  async run(args, ctx) {
    const outcome = await publishExperienceUseCase(
      {
        actor: actorOf(ctx),
        componentId: args.componentId,
        environment: args.environment,
        phase: args.phase ?? 'keep',
        revision: args.revision,
        expectedLive: args.expectedLive,
      },
      ctx.domain,
    );
    if (outcome.outcome === 'requested') {
      const what =
        args.revision === undefined
          ? 'publishing the experience draft'
          : `re-publishing revision ${args.revision} of the experience`;
      return {
        ...pendingApproval(outcome, what),
        status: 'pending_approval' as const,
        componentId: args.componentId,
        environment: outcome.request.environmentName,
      };
    }
    const { revision, moved } = outcome;
    const from =
      revision.republishedFrom === null
        ? ''
        : ` (re-published from revision ${revision.republishedFrom})`;
    const movedText =
      moved.length === 0
        ? ''
        : ` Users who changed variant: ${moved.map((m) => `"${m.segment}" ${percentOf(m.moved)}`).join(', ')}.`;
    return {
      message: `Revision ${revision.number}${from} is live in ${revision.environmentName}: ${describeSegments(revision.definition)}.${movedText}`,
      status: 'published' as const,
      componentId: revision.componentId,
      environment: revision.environmentName,
      revision: revision.number,
      republishedFrom: revision.republishedFrom,
      publishedAt: isoTime(revision.publishedAt),
      moved: moved.map((m) => ({ segment: m.segment, percent: percentNumber(m.moved) })),
    };
  },
});
