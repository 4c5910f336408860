import { saveExperienceDraft } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool, isoTime } from './define.js';
import {
  describeSegments,
  segmentsInput,
  segmentsShape,
  toDefinition,
  toSegments,
} from './experience-shapes.js';
import { componentId, environmentName } from './params.js';

export const setExperience = defineTool({
  name: 'set_experience',
  title: 'Save experience draft',
  description:
    'Saves (replaces) the experience draft of a component in an environment; nothing changes for users until publish_experience. ' +
    'An experience is up to 20 segments tried in order: the first whose rules all hold (rules on attributes the host page passes, ' +
    'such as country, device, plan) gives one variant, or a split among up to 10 variants in percent (up to 3 decimals, adding up to 100). ' +
    'Users no segment takes get the release. Variants are variantIds from list_variants. ' +
    'Example: [{ "name": "EU", "rules": [{ "attribute": "country", "operator": "in", "values": ["DE", "FR"] }], ' +
    '"arms": [{ "variantId": "<v7 id>", "percent": 50 }, { "variantId": "<v6 id>", "percent": 50 }] }]. ' +
    'The draft is checked as a publish would check it: an error names the segment, rule or arm that is wrong. Viewers cannot edit (FORBIDDEN).',
  scope: Scope.Write,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: z.strictObject({ componentId, environment: environmentName, segments: segmentsInput }),
  output: z.object({
    message: z.string(),
    componentId: z.string(),
    environment: z.string(),
    segments: segmentsShape,
    updatedAt: z.string(),
    nextStep: z.string(),
  }),
  async run(args, ctx) {
    const draft = await saveExperienceDraft(
      {
        actor: actorOf(ctx),
        componentId: args.componentId,
        environment: args.environment,
        definition: toDefinition(args.segments),
      },
      ctx.domain,
    );
    return {
      message: `Draft saved for ${args.environment}: ${describeSegments(draft.definition)}.`,
      componentId: draft.componentId,
      environment: args.environment,
      segments: toSegments(draft.definition),
      updatedAt: isoTime(draft.updatedAt),
      nextStep:
        'Call publish_experience to make it live (phase "keep" keeps users in their buckets, "new" draws everyone again).',
    };
  },
});
