import { normalizeEnvironmentName } from '@cp/domain';
import { z } from 'zod';
import 'zod-openapi';
import { HtmlLoader } from './loader-schemas.js';

/*
 * One set of zod schemas: the request schemas validate every /consume and /flow
 * query, and all of them generate the OpenAPI document (api/openapi.ts).
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

export const ConsumeVariant = z
  .object({
    id: z.string().meta({ description: 'Variant id.' }),
    name: z.string().meta({ description: '`v<sequence>`: the upload number within the component (v1, v2, …).', example: 'v3' }),
    loader: HtmlLoader,
  })
  .meta({ id: 'ConsumeVariant' });

export const ConsumeItem = z
  .object({
    id: z.string().meta({ description: 'Component id.' }),
    name: z.string(),
    organizationId: z.string(),
    consume_variant: z.array(ConsumeVariant).meta({
      description: 'The variant served: exactly one from /consume; in /flow, empty when nothing is released to the flow environment.',
    }),
  })
  .meta({ id: 'ConsumeItem' });

export const ConsumeResponse = z.object({ item: ConsumeItem }).meta({ id: 'ConsumeResponse' });

export const FlowComponentType = z
  .object({
    id: z.string().meta({ description: 'Component id.' }),
    name: z.string(),
    organizationId: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
  })
  .meta({ id: 'FlowComponentType', description: 'The component a flow step shows.' });

export const FlowComponent = z
  .object({
    id: z.string().meta({ description: 'Step id: the component id (a component appears at most once in a flow).' }),
    type: FlowComponentType,
    consume_variant: z.array(ConsumeVariant).optional().meta({
      description: 'Only with `resolve=components`: the variant released to the flow environment (default `prod`), or empty.',
    }),
  })
  .meta({ id: 'FlowComponent' });

export const UserFlow = z
  .object({
    item: z.object({
      id: z.string(),
      name: z.string(),
      organizationId: z.string(),
      components: z.array(FlowComponent).meta({ description: 'In flow order.' }),
    }),
  })
  .meta({ id: 'IUserFlow', description: 'A published flow (deprecated: use /consume per component).' });

export const ProblemDetails = z
  .object({
    type: z.string().meta({ description: 'Problem type, relative to the service (README "Errors").', example: '/problems/not-found' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().meta({ description: 'What went wrong and what to do, for people.' }),
    code: z.string().meta({ description: 'Stable code for programs, e.g. `NOT_FOUND`, `INVALID_INPUT`.' }),
    resource: z
      .enum(['Component', 'Variant', 'Release', 'Environment', 'Flow'])
      .optional()
      .meta({ description: 'On 404: what is missing (the component, or its release in the environment, …).' }),
  })
  .meta({ id: 'ProblemDetails', description: 'RFC 9457 problem details (`application/problem+json`).' });

export const Health = z
  .object({ status: z.literal('ok'), version: z.string(), server: z.literal('delivery-api') })
  .meta({ id: 'Health' });

export type ConsumeQueryInput = z.input<typeof ConsumeQuery>;
export type ConsumeResponse = z.infer<typeof ConsumeResponse>;
export type ConsumeVariant = z.infer<typeof ConsumeVariant>;
export type UserFlow = z.infer<typeof UserFlow>;
