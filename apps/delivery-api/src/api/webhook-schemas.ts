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
    .object({ id: z.uuid(), email: z.string().nullable() })
    .meta({
      description: 'Who made the change (for an approved release request: who approved it).',
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
};
