import { normalizeEnvironmentName } from '@cp/domain';
import { z } from 'zod';
import 'zod-openapi';

/*
 * The request schemas: they validate every /consume and /flow query, and with the
 * response schemas (response-schemas.ts) they generate the OpenAPI document (openapi.ts).
 */

const environmentName = z
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

const EXAMPLE_COMPONENT = '3f1c2a9e-8d4b-4c6f-9a71-2b5e0d7c4e11';
const EXAMPLE_FLOW = '7a0d5c3b-1e2f-4a6b-8c9d-0e1f2a3b4c5d';

export const ConsumeQuery = z
  .strictObject({
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
  })
  .superRefine((query, ctx) => {
    if (query.preview === 'false' && query.env === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['preview'],
        message: 'preview=false needs env: name the environment whose released variant you want, for example &env=prod.',
      });
    }
  });

export const FlowQuery = z.strictObject({
  id: requiredId('flow', EXAMPLE_FLOW).meta({ description: 'Flow id (a UUID). Drafts answer 404.', example: EXAMPLE_FLOW }),
  resolve: z
    .enum(['components'], { error: 'resolve accepts only "components".' })
    .optional()
    .meta({ description: '`components`: each component also carries its loader, as `/consume?env=<flow environment>` gives it.' }),
});
