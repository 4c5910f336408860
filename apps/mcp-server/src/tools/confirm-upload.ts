import { confirmUpload as confirmUploadUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, componentPageUrl, defineTool } from './define.js';
import { uuid } from './params.js';
import { PREVIEW_VIEW_UI } from '../views/preview-view.js';

export const confirmUpload = defineTool({
  name: 'confirm_upload',
  title: 'Confirm upload (step 2 of 2)',
  description:
    'Finishes an upload after curlCommand from upload_component has run: checks the file (HTML, size limit), stores it as a new version ' +
    'and creates the component if it is new. Confirming twice answers the same. If it says the file was not received, run curlCommand and call it again. ' +
    'For a new component, save componentId and orgId in service.config.json so later uploads update it.',
  scope: Scope.Write,
  metric: { uploads: 'confirmed' },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: PREVIEW_VIEW_UI,
  input: z.strictObject({ uploadId: uuid('uploadId').describe('The uploadId returned by upload_component.') }),
  output: z.object({
    message: z.string(),
    dashboardUrl: z.string(),
    componentName: z.string(),
    componentId: z.string(),
    variantId: z.string(),
    sequence: z.int().describe('The new version\'s number within the component.'),
    isNewComponent: z.boolean(),
    orgId: z.string(),
  }),
  async run(args, ctx) {
    const result = await confirmUploadUseCase({ actor: actorOf(ctx), uploadId: args.uploadId }, ctx.domain);
    const message = result.isNewComponent
      ? `Component "${result.componentName}" was created. Save "componentId": "${result.componentId}" and "organization": "${result.organizationId}" (orgId) in service.config.json so later uploads update this component.`
      : `A new version (version ${result.variantSequence}) was added to component "${result.componentName}".`;
    return {
      message,
      dashboardUrl: componentPageUrl(ctx, result.componentId),
      componentName: result.componentName,
      componentId: result.componentId,
      variantId: result.variantId,
      sequence: result.variantSequence,
      isNewComponent: result.isNewComponent,
      orgId: result.organizationId,
    };
  },
});
