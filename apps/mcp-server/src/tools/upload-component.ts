import { Limits, startUpload } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool } from './define.js';
import { uuid } from './params.js';

export const uploadComponent = defineTool({
  name: 'upload_component',
  title: 'Upload component (step 1 of 2)',
  description:
    'Starts an upload of ./dist/index.html (the built component). With "componentId" (from service.config.json) it adds a new version ' +
    'to that component; without it, it creates a new component named "name" in "organization" (name or id; default: your default organization). ' +
    'Returns "curlCommand": run it as-is from the project root (it PUTs ./dist/index.html to a presigned URL valid for 3600 seconds), ' +
    'then call confirm_upload with "uploadId". Starting uploads has its own, tighter rate limit.',
  scope: Scope.Write,
  budget: 'upload',
  metric: { uploads: 'started' },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    name: z
      .string({ error: 'name must be a string.' })
      .max(Limits.componentNameMaxLength, { error: `name must be at most ${Limits.componentNameMaxLength} characters.` })
      .optional()
      .describe('Component name, from service.config.json. Required for a new component.'),
    componentId: uuid('componentId').optional().describe('Existing component to add a version to, from service.config.json.'),
    organization: z
      .string({ error: 'organization must be a string (a name or an id).' })
      .min(1, { error: 'organization must not be empty; omit it to use your default organization.' })
      .max(200, { error: 'organization must be at most 200 characters.' })
      .optional()
      .describe('Organization name or id, from service.config.json; default: your default organization.'),
  }),
  output: z.object({
    message: z.string(),
    uploadId: z.string().describe('Pass to confirm_upload.'),
    componentId: z.string().nullable().describe('The component that gets the new version; null when a new component will be created.'),
    curlCommand: z.string().describe('One command line; run it from the directory that contains dist/index.html.'),
    uploadUrl: z.string().describe('The presigned URL curlCommand PUTs to, for clients that send the file themselves (the cpc CLI).'),
    uploadHeaders: z.record(z.string(), z.string()).describe('The headers the PUT must carry.'),
    expiresIn: z.string().describe('"<seconds> seconds".'),
    nextStep: z.string(),
  }),
  async run(args, ctx) {
    const started = await startUpload(
      { actor: actorOf(ctx), name: args.name, componentId: args.componentId, organization: args.organization },
      ctx.domain,
    );
    const target = started.session.componentId === null ? `new component "${started.session.componentName}"` : `component "${started.session.componentName}"`;
    return {
      message: `Upload session created for ${target}.`,
      uploadId: started.session.id,
      componentId: started.session.componentId,
      curlCommand: started.curlCommand,
      uploadUrl: started.uploadUrl,
      uploadHeaders: { 'content-type': 'text/html' },
      expiresIn: `${started.expiresInSeconds} seconds`,
      nextStep: `Run curlCommand from the project root (it uploads ./dist/index.html), then call confirm_upload with uploadId "${started.session.id}" within ${started.expiresInSeconds} seconds.`,
    };
  },
});
