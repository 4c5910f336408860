import { z } from 'zod';
import 'zod-openapi';
import { ConsumeResponse, ConsumeVariant } from '@cp/consume';

/*
 * The response schemas: what /consume, /flow and the error and health answers
 * return (the /consume body's own are in @cp/consume). They generate the OpenAPI document (openapi.ts).
 */

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

export { ConsumeResponse };
export type UserFlow = z.infer<typeof UserFlow>;

export const ChangeEventStream = z.string().meta({
  id: 'ChangeEventStream',
  description: 'text/event-stream: `retry: 2000`, then `event: change` / `id: <epoch>-<seq>` / `data: {"id":"<component or flow id>"}`, `event: reset` / `data: {}`, and `: keep-alive` comment lines.',
  example: 'retry: 2000\n\nid: 5f0c2a9e81d4-41\n\nevent: change\nid: 5f0c2a9e81d4-42\ndata: {"id":"3f1c2a9e-8d4b-4c6f-9a71-2b5e0d7c4e11"}\n\n: keep-alive\nid: 5f0c2a9e81d4-42\n\n',
});
