import { z } from 'zod';
import { defineTool } from './define.js';

export const getServiceGuide = defineTool({
  name: 'get_service_guide',
  title: 'Component development guide',
  description:
    'Returns the component development guide as HTML: the dist/index.html contract, talking to the host page (cpReceive, ' +
      'cpSend, cpRoot, sizing, frame and shadow isolation), service.config.json, the two-step upload ' +
    '(upload_component, run curlCommand, confirm_upload), releasing to environments, and how hosts consume components. ' +
    'Needs no sign-in. Read it before building or uploading a component for the first time.',
  scope: 'public',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    title: z.string(),
    format: z.literal('text/html'),
    html: z.string(),
  }),
  async run(_args, ctx) {
    return { title: 'Component development guide', format: 'text/html' as const, html: ctx.guideHtml };
  },
});
