import { EXPERIENCE_LIMITS, isUuid, normalizeEnvironmentName } from '@cp/domain';
import { z } from 'zod';
import 'zod-openapi';

/*
 * The request schemas: they validate every /consume and /flow query, and with the
 * response schemas (response-schemas.ts) they generate the OpenAPI document (openapi.ts).
 */

/** An environment name, normalized (also read by the demo page's query). */
export const environmentName = z
  .string()
  .transform((raw, ctx) => {
    try {
      return normalizeEnvironmentName(raw);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  })
  .meta({
    description:
      'Environment name: 1-32 letters, digits or "-", starting with a letter; compared lower-case (`PROD` is `prod`).',
    example: 'prod',
  });

const requiredId = (what: string, example: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `id is required: pass the ${what} id, for example ?id=${example}.` : undefined) })
    .min(1, `id must not be empty: pass the ${what} id, for example ?id=${example}.`);

/** `release` or `v<sequence>`: the arms an assignment names. */
const ARM_PATTERN = /^(release|v[1-9]\d{0,9})$/;

const EXAMPLE_COMPONENT = '3f1c2a9e-8d4b-4c6f-9a71-2b5e0d7c4e11';
const EXAMPLE_FLOW = '7a0d5c3b-1e2f-4a6b-8c9d-0e1f2a3b4c5d';

const consumeParameters = {
    id: requiredId('component', EXAMPLE_COMPONENT).meta({
      description: 'Component id (a UUID, from `confirm_upload`). Unknown or malformed ids answer 404.',
      example: EXAMPLE_COMPONENT,
    }),
    env: environmentName.optional(),
    preview: z
      .enum(['true', 'false'], { error: 'preview must be "true" or "false".' })
      .optional()
      .meta({
        description:
          '`true`: the latest variant (preview), even when `env` is given. `false`: the variant released to `env`, which is then required. Default: `false` with `env`, `true` without.',
      }),
    arm: z
      .string()
      .regex(ARM_PATTERN, 'arm must be "release" or a variant name such as "v7" (the `arm` of the assignment descriptor).')
      .optional()
      .meta({
        description:
          'An arm of the live experience or rollout: `release` (the fallback) or `v<sequence>`. Public and cacheable per arm; an arm the current mapping does not have gets the fallback, with the current descriptor. `Cp-Arm` names the arm served.',
        example: 'v7',
      }),
    rev: z
      .string()
      .regex(/^\d{1,15}$/, 'rev must be the `revision` number of the assignment descriptor, digits only.')
      .optional()
      .meta({
        description:
          'The descriptor `revision` the arm was picked from: only makes the URL change with the mapping (a CDN keeps no stale arm across one). Not compared: every answer carries the current mapping.',
        example: '41',
      }),
};

export const ConsumeQuery = z
  .strictObject(consumeParameters)
  .superRefine((query, ctx) => {
    if (query.preview === 'false' && query.env === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['preview'],
        message: 'preview=false needs env: name the environment whose released variant you want, for example &env=prod.',
      });
    }
  });

/**
 * /consume's query as the OpenAPI document shows it: with the user's key and attributes, which
 * the endpoint sets apart before checking the rest (http/keyed-request.ts checks them).
 */
export const ConsumeQueryDocument = z.object({
  ...consumeParameters,
  key: z
    .string()
    .optional()
    .meta({
      description: `The user's stable key (1 to ${EXPERIENCE_LIMITS.keyLength} characters), for hosts without the SDK: answers the user's arm, \`Cache-Control: private\`. Not with \`arm\`. Same as the \`Cp-Key\` header.`,
      example: 'account-8812',
    }),
  'attr.<name>': z
    .string()
    .optional()
    .meta({
      description: `An attribute of the user for the experience's rules, one parameter each (\`attr.country=DE&attr.plan=pro\`): at most ${EXPERIENCE_LIMITS.attributesPerRequest}, names a letter then letters, digits, \`_\`, \`.\` or \`-\` (at most ${EXPERIENCE_LIMITS.attributeLength}), values at most ${EXPERIENCE_LIMITS.valueLength} characters. Same as the \`Cp-Attributes\` header.`,
      example: 'DE',
    }),
});

export const FlowQuery = z.strictObject({
  id: requiredId('flow', EXAMPLE_FLOW).meta({ description: 'Flow id (a UUID). Drafts answer 404.', example: EXAMPLE_FLOW }),
  resolve: z
    .enum(['components'], { error: 'resolve accepts only "components".' })
    .optional()
    .meta({ description: '`components`: each component also carries its loader, as `/consume?env=<flow environment>` gives it.' }),
});

/** Ids one change stream may watch (sdk-design: one stream per page for all its live components). */
export const MAX_STREAM_IDS = 50;

const idList = z
  .string({ error: (issue) => (issue.input === undefined ? `ids is required: pass the component or flow ids to watch, comma-separated, for example ?ids=${EXAMPLE_COMPONENT}.` : undefined) })
  .transform((raw, ctx) => {
    const ids = raw.split(',').map((id) => id.trim().toLowerCase());
    const bad = ids.filter((id) => !isUuid(id));
    if (bad.length > 0) {
      const shown = bad.slice(0, 3).map((id) => `"${id.length > 40 ? `${id.slice(0, 40)}…` : id}"`);
      ctx.addIssue({
        code: 'custom',
        message:
          ids.length === 1 && ids[0] === ''
            ? 'ids must not be empty: pass 1 to 50 component or flow ids, comma-separated.'
            : `ids must be component or flow ids (UUIDs), comma-separated; not ${shown.join(', ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}.`,
      });
      return z.NEVER;
    }
    const unique = new Set(ids);
    if (unique.size > MAX_STREAM_IDS) {
      ctx.addIssue({ code: 'custom', message: `ids names ${unique.size} ids; one stream watches at most ${MAX_STREAM_IDS}: open a second stream for the rest.` });
      return z.NEVER;
    }
    return unique;
  })
  .meta({
    description: `1 to ${MAX_STREAM_IDS} component or flow ids (UUIDs), comma-separated; repeated ids count once. Ids are not looked up: an id that names nothing never changes.`,
    example: `${EXAMPLE_COMPONENT},${EXAMPLE_FLOW}`,
  });

export const ChangesQuery = z.strictObject({
  ids: idList,
  lastEventId: z
    .string()
    .max(100, 'lastEventId is at most 100 characters: pass the id of the last event received.')
    .optional()
    .meta({
      description:
        'Resume point when a client reopens the stream itself (for a new id set): the `id` of the last event it received. The `Last-Event-ID` header, which EventSource sends when it reconnects, takes precedence.',
      example: '5f0c2a9e81d4-42',
    }),
});
