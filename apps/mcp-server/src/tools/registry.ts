import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { changeRollout } from './change-rollout.js';
import { confirmUpload } from './confirm-upload.js';
import type { ToolDefinition, ToolUi } from './define.js';
import { editComponentTags } from './edit-component-tags.js';
import { getComponent } from './get-component.js';
import { getComponentApp } from './get-component-app.js';
import { getComponentUsage } from './get-component-usage.js';
import { getExperience } from './get-experience.js';
import { getReleaseChoices } from './get-release-choices.js';
import { getRollout } from './get-rollout.js';
import { getServiceGuide } from './get-service-guide.js';
import { getVariantHtml } from './get-variant-html.js';
import { listComponents } from './list-components.js';
import { listOrganizations } from './list-organizations.js';
import { listVariants } from './list-variants.js';
import { promoteRollout } from './promote-rollout.js';
import { publishComponent } from './publish-component.js';
import { publishExperience } from './publish-experience.js';
import { removeComponentApp } from './remove-component-app.js';
import { setComponentApp } from './set-component-app.js';
import { setExperience } from './set-experience.js';
import { startRollout } from './start-rollout.js';
import { stopRollout } from './stop-rollout.js';
import { uploadComponent } from './upload-component.js';
import { whoami } from './whoami.js';

/** Every tool, in the order tools/list shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  whoami,
  listOrganizations,
  listComponents,
  getComponent,
  listVariants,
  getComponentUsage,
  editComponentTags,
  uploadComponent,
  confirmUpload,
  publishComponent,
  getReleaseChoices,
  getVariantHtml,
  getExperience,
  setExperience,
  publishExperience,
  startRollout,
  getRollout,
  changeRollout,
  promoteRollout,
  stopRollout,
  getComponentApp,
  setComponentApp,
  removeComponentApp,
  getServiceGuide,
];

export const toolsByName: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The error branch every tool may answer with (isError: true). */
export const toolErrorShape = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string().describe('Stable error code, for example NOT_FOUND or INVALID_INPUT.'),
    message: z.string().describe('What went wrong and what to do next.'),
  }),
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json: Record<string, unknown> = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'throw' });
  delete json.$schema;
  return json;
}

/**
 * tools/list, computed once: converting zod schemas per request would cost more
 * than the request. The output schema is "success or error" (the SDK client
 * validates structuredContent against it even when isError is true).
 */
export function buildToolListing(tools: readonly ToolDefinition[] = TOOLS): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    outputSchema: {
      type: 'object',
      oneOf: [jsonSchema(tool.output.extend({ success: z.literal(true) }), 'output'), jsonSchema(toolErrorShape, 'output')],
    },
    annotations: { title: tool.title, ...tool.annotations },
    ...(tool.ui === undefined ? {} : { _meta: uiMeta(tool.ui) }),
  }));
}

/** `_meta.ui`, and the flat `ui/resourceUri` that hosts written before `_meta.ui` still read. */
function uiMeta(ui: ToolUi): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    ui: {
      ...(ui.resourceUri === undefined ? {} : { resourceUri: ui.resourceUri }),
      ...(ui.visibility === undefined ? {} : { visibility: [...ui.visibility] }),
    },
  };
  if (ui.resourceUri !== undefined) meta['ui/resourceUri'] = ui.resourceUri;
  return meta;
}
