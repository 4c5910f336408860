import {
  getExperience as getExperienceUseCase,
  type ExperienceDefinition,
  type ExperienceView,
} from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool, isoTime } from './define.js';
import {
  describeSegments,
  revisionSummaryShape,
  segmentsShape,
  toRevisionSummary,
  toSegments,
} from './experience-shapes.js';
import { componentId, environmentName } from './params.js';
import { describeRollout, rolloutShape, toRollout } from './rollout-shapes.js';

/** Compared in the tools' own shape, whose key order is fixed (stored JSON may reorder keys). */
const sameSegments = (a: ExperienceDefinition, b: ExperienceDefinition): boolean =>
  JSON.stringify(toSegments(a)) === JSON.stringify(toSegments(b));

/** The whole answer in words: what is live, whether the draft differs, what blocks a publish. */
function summarize(view: ExperienceView): string {
  const env = view.environment.name;
  const { live, draft } = view;
  const lines = [
    live === null
      ? `No experience was ever published to ${env}: everyone gets the release.`
      : `${env}: revision ${live.number} is the latest, published ${isoTime(live.publishedAt)}: ${describeSegments(live.definition)}.`,
  ];
  if (draft === null) lines.push('No draft is saved (set_experience saves one).');
  else if (live !== null && sameSegments(draft.definition, live.definition))
    lines.push('The draft is the same as the latest revision.');
  else
    lines.push(
      `The draft (saved ${isoTime(draft.updatedAt)}) is not published: ${describeSegments(draft.definition)}.`,
    );
  if (view.liveRollout !== null)
    lines.push(
      `${describeRollout(view.liveRollout)} An experience cannot be published while a rollout is live.`,
    );
  if (view.environment.protected)
    lines.push(`${env} is protected: a member's publish becomes a release request.`);
  return lines.join('\n');
}

export const getExperience = defineTool({
  name: 'get_experience',
  title: 'Get experience',
  description:
    'Reads the experience of a component in an environment: the saved draft, the latest published revision (live unless it has no segments), ' +
    'the history of revisions (newest first, at most 20) and the live rollout if any (an experience and a rollout are never live together). ' +
    'Weights are in percent. Next: set_experience to edit the draft, publish_experience to publish it or re-publish an earlier revision.',
  scope: Scope.Read,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: z.strictObject({ componentId, environment: environmentName }),
  output: z.object({
    message: z.string().describe('The answer in words.'),
    componentId: z.string(),
    environment: z.object({ name: z.string(), protected: z.boolean() }),
    draft: z
      .object({ segments: segmentsShape, updatedBy: z.string(), updatedAt: z.string() })
      .nullable(),
    live: z
      .object({
        revision: z.int(),
        segments: segmentsShape,
        republishedFrom: z.int().nullable(),
        publishedAt: z.string(),
      })
      .nullable()
      .describe(
        'The latest revision; with no segments the experience is off. Pass its revision as expectedLive to publish_experience.',
      ),
    history: z.array(revisionSummaryShape).describe('Newest first, at most 20.'),
    liveRollout: rolloutShape.nullable(),
  }),
  async run(args, ctx) {
    const view = await getExperienceUseCase(
      { actor: actorOf(ctx), componentId: args.componentId, environment: args.environment },
      ctx.domain,
    );
    return {
      message: summarize(view),
      componentId: args.componentId,
      environment: { name: view.environment.name, protected: view.environment.protected },
      draft:
        view.draft === null
          ? null
          : {
              segments: toSegments(view.draft.definition),
              updatedBy: view.draft.updatedBy,
              updatedAt: isoTime(view.draft.updatedAt),
            },
      live:
        view.live === null
          ? null
          : {
              revision: view.live.number,
              segments: toSegments(view.live.definition),
              republishedFrom: view.live.republishedFrom,
              publishedAt: isoTime(view.live.publishedAt),
            },
      history: view.revisions.map(toRevisionSummary),
      liveRollout: view.liveRollout === null ? null : toRollout(view.liveRollout),
    };
  },
});
