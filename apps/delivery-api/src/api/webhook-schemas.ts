import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';

/*
 * The webhook payloads (docs/webhooks.md), as the OpenAPI 3.1 `webhooks` of this document: what an
 * organization's endpoints receive. Written by packages/db/src/repositories/webhook-events.ts; the
 * worker's tests check every delivered body against these schemas.
 */

const Ref = (name: string) =>
  z.object({ id: z.uuid(), name: z.string() }).meta({ description: `The ${name}.` });
const VariantRef = z.object({
  id: z.uuid(),
  sequence: z.int().min(1).meta({ description: '1 for the first upload, then 2, 3...' }),
});

const common = {
  organization: Ref('organization'),
  component: Ref('component'),
  actor: z
    .object({
      id: z.uuid(),
      email: z.string().nullable(),
      via: z
        .union([
          z.object({ via: z.literal('api-token'), tokenId: z.uuid(), tokenName: z.string() }),
          z.object({
            via: z.literal('ci'),
            policyId: z.uuid(),
            policyName: z.string(),
            provider: z.enum(['github', 'gitlab']),
            repository: z.string(),
            workflow: z.string(),
            runId: z.string(),
            commit: z.string(),
          }),
        ])
        .nullable()
        .meta({ description: 'How the change was made: null by the person directly; otherwise the API token or the CI trust policy and run (docs/cli-and-ci.md).' }),
    })
    .meta({
      description: 'Who made the change (for an approved release request: who approved it); through a credential, its creator.',
    }),
};

const envelope = <T extends string, D extends z.ZodRawShape>(
  type: T,
  data: D,
  id: string,
  description: string,
) =>
  z
    .object({
      type: z.literal(type),
      timestamp: z.iso
        .datetime({ offset: true })
        .meta({
          description:
            'When the change happened (not the attempt: that is the `webhook-timestamp` header).',
        }),
      data: z.strictObject({ ...common, ...data }),
    })
    .strict()
    .meta({ id, description });

export const ComponentCreatedEvent = envelope(
  'component.created',
  {},
  'ComponentCreatedEvent',
  'A confirmed upload created a component (a variant.created for its first variant follows).',
);
export const VariantCreatedEvent = envelope(
  'variant.created',
  {
    variant: VariantRef.extend({
      size: z.int().min(0).meta({ description: 'Bytes.' }),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  },
  'VariantCreatedEvent',
  'A confirmed upload added a variant.',
);
export const ReleasePublishedEvent = envelope(
  'release.published',
  {
    environment: Ref('environment'),
    variant: VariantRef.meta({ description: 'The variant released now.' }),
    previousVariant: VariantRef.nullable().meta({
      description: 'The variant it replaced; null for the first release to the environment.',
    }),
    rollback: z
      .boolean()
      .meta({ description: 'True when the released variant is older than the one it replaced.' }),
    releaseRequestId: z
      .uuid()
      .nullable()
      .meta({ description: 'The approved release request it comes from, if any.' }),
    releaseId: z.uuid().meta({ description: 'The release history event.' }),
  },
  'ReleasePublishedEvent',
  'A publish, a rollback or an approved release request.',
);
export const TagsChangedEvent = envelope(
  'component.tags_changed',
  { tags: z.object({ before: z.array(z.string()), after: z.array(z.string()) }) },
  'TagsChangedEvent',
  "A tag edit changed the component's tags.",
);

export const ExperiencePublishedEvent = envelope(
  'experience.published',
  {
    environment: Ref('environment'),
    revision: z.int().min(1).meta({ description: "The revision's number: 1 for the first, then 2, 3..." }),
    segments: z.int().min(0).meta({ description: 'How many segments; 0 turns the experience off.' }),
    saltKept: z
      .boolean()
      .meta({ description: "True when the revision kept the live one's salt, so kept arms keep their users." }),
    moved: z
      .array(z.strictObject({ segment: z.string(), moved: z.int().min(0) }))
      .meta({ description: "The users each kept segment moves to another arm, in thousandths of a percent of the segment's users." }),
    republishedFrom: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'The revision published again, if this is a re-publish.' }),
    releaseRequestId: z
      .uuid()
      .nullable()
      .meta({ description: 'The approved release request it comes from, if any.' }),
  },
  'ExperiencePublishedEvent',
  'An experience revision was published, published again, or approved from a release request.',
);

/** Thousandths of a percent of the users (docs/experiences.md). */
const Weight = z.int().min(0).max(100_000);
/** What every rollout event carries: the rollout after the change, and who decided it. */
const rollout = {
  environment: Ref('environment'),
  rolloutId: z.uuid(),
  candidate: VariantRef.meta({ description: 'The variant rolled out.' }),
  weight: Weight.meta({
    description: "The candidate's share served after the change, in thousandths of a percent (0 once ended without a promote).",
  }),
  stageIndex: z.int().min(0).meta({ description: 'The stage after the change, from 0.' }),
  state: z.enum(['running', 'paused', 'promoted', 'stopped', 'rolled_back']),
  by: z.enum(['person', 'guard']).meta({
    description: 'Who decided: a person, or the guard (then `actor` is the nil UUID with no email).',
  }),
};
const fromWeight = Weight.meta({ description: "The candidate's share before the change." });
const Arm = z.strictObject({ sessions: z.int().min(0), errorSessions: z.int().min(0) });

export const RolloutStartedEvent = envelope(
  'rollout.started',
  {
    ...rollout,
    baseline: VariantRef.meta({ description: 'The release when the rollout started.' }),
    stages: z
      .array(z.strictObject({ weight: Weight, holdMinutes: z.int().min(0) }))
      .min(1)
      .meta({ description: 'The planned stages: the candidate share and the minimum time at each.' }),
    releaseRequestId: z
      .uuid()
      .nullable()
      .meta({ description: 'The approved release request it comes from, if any.' }),
  },
  'RolloutStartedEvent',
  'A canary rollout started (or was approved from a release request), at its first stage.',
);
export const RolloutAdvancedEvent = envelope(
  'rollout.advanced',
  {
    ...rollout,
    fromStageIndex: z.int().min(0).meta({ description: 'The stage before the change.' }),
    fromWeight,
  },
  'RolloutAdvancedEvent',
  'A rollout moved to a later stage, by a person or by the guard.',
);
export const RolloutPromotedEvent = envelope(
  'rollout.promoted',
  { ...rollout, releaseId: z.uuid().meta({ description: 'The release history event of the candidate.' }) },
  'RolloutPromotedEvent',
  'The candidate was released (a promote, or a release of it by any path): the rollout is over (a release.published is sent too).',
);
export const RolloutStoppedEvent = envelope(
  'rollout.stopped',
  {
    ...rollout,
    reason: z.string().meta({ description: 'Why: what the person wrote, or which release stopped it.' }),
    fromWeight,
    releaseId: z
      .uuid()
      .optional()
      .meta({ description: 'The release history event of the other variant, when a release stopped it.' }),
  },
  'RolloutStoppedEvent',
  'The kill switch, or another variant released meanwhile: everyone is back on the release.',
);
export const RolloutRolledBackEvent = envelope(
  'rollout.rolled_back',
  {
    ...rollout,
    reason: z.string(),
    fromWeight,
    windows: z
      .array(
        z.strictObject({
          index: z.int().min(0),
          from: z.iso.datetime({ offset: true }),
          to: z.iso.datetime({ offset: true }),
          weight: Weight.meta({ description: "The candidate's share during the window." }),
          candidate: Arm,
          release: Arm,
          rise: z.number().meta({ description: "The candidate's session error rate minus the release's." }),
          z: z.number().meta({ description: 'The two-proportion z of the rise.' }),
          sampleRatioP: z.number().meta({ description: 'The chi-square p-value of the session split against the weight.' }),
          verdict: z.enum(['healthy', 'regressed', 'sample_ratio_mismatch']),
        }),
      )
      .min(1)
      .meta({ description: 'The regressed windows in a row that decided, oldest first.' }),
  },
  'RolloutRolledBackEvent',
  'The guard rolled the rollout back, with the figures that decided.',
);

const title = z.string().meta({ description: "The app's title, as people see it in the assistant." });

export const AppSavedEvent = envelope(
  'app.saved',
  {
    environment: Ref('environment whose release the app shows'),
    created: z.boolean().meta({ description: 'True when the component was not an app before; false when its settings changed.' }),
    title,
    description: z.string().meta({ description: 'What the model reads: when to show the component and what its arguments mean.' }),
    inputSchema: z.boolean().meta({ description: 'True when the app declares a JSON Schema for its arguments.' }),
    actionTools: z
      .record(z.string(), z.string())
      .meta({ description: "The component's actions (`cpSend`) that call a tool of the tool server instead of being reported to the conversation: action -> tool name." }),
  },
  'AppSavedEvent',
  'A component was offered to AI assistants as an app, or its app settings changed (docs/mcp-apps.md).',
);
export const AppRemovedEvent = envelope(
  'app.removed',
  { environment: Ref('environment whose release the app showed'), title },
  'AppRemovedEvent',
  'A component is no longer offered to AI assistants: its tool leaves every member\'s tool list.',
);

const HEADERS = z.object({
  'webhook-id': z
    .string()
    .meta({
      description:
        'The message id (`msg_…`), the same on every retry and redelivery: deduplicate on it.',
    }),
  'webhook-timestamp': z.string().meta({ description: 'Unix seconds of this attempt.' }),
  'webhook-signature': z
    .string()
    .meta({
      description:
        '`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the decoded `whsec_` secret (Standard Webhooks).',
    }),
});

const operation = (type: string, schema: z.ZodType) => ({
  post: {
    operationId: `webhook-${type}`,
    summary: `${type} (sent to your endpoint)`,
    description:
      'POSTed to each enabled endpoint subscribed to this event, signed per Standard Webhooks: verify with any Standard Webhooks library. Answer 2xx within 10 s; otherwise it is retried with exponential backoff for about a day (docs/webhooks.md). No ordering is guaranteed.',
    requestParams: { header: HEADERS },
    requestBody: { required: true, content: { 'application/json': { schema } } },
    responses: {
      '200': {
        description:
          'Any 2xx: delivered. Anything else, a redirect or no answer within 10 s: retried.',
      },
    },
  },
});

export const WEBHOOKS: ZodOpenApiPathsObject = {
  'component.created': operation('component.created', ComponentCreatedEvent),
  'variant.created': operation('variant.created', VariantCreatedEvent),
  'release.published': operation('release.published', ReleasePublishedEvent),
  'component.tags_changed': operation('component.tags_changed', TagsChangedEvent),
  'experience.published': operation('experience.published', ExperiencePublishedEvent),
  'rollout.started': operation('rollout.started', RolloutStartedEvent),
  'rollout.advanced': operation('rollout.advanced', RolloutAdvancedEvent),
  'rollout.promoted': operation('rollout.promoted', RolloutPromotedEvent),
  'rollout.stopped': operation('rollout.stopped', RolloutStoppedEvent),
  'rollout.rolled_back': operation('rollout.rolled_back', RolloutRolledBackEvent),
  'app.saved': operation('app.saved', AppSavedEvent),
  'app.removed': operation('app.removed', AppRemovedEvent),
};
