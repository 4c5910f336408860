import { APP_LIMITS as L, type AppTool, type ComponentApp } from '@cp/domain';
import { z } from 'zod';
import { isoTime } from './define.js';

/*
 * A component app as the app tools take and answer it (docs/mcp-apps.md, section 2). The schema
 * holds the types; the domain (rules/app-definition.ts) checks lengths, the input schema and the
 * action names, and names the field that is wrong.
 */
export const appTitle = z
  .string({ error: 'title must be a string.' })
  .describe(
    `For people: the host shows it as the tool's title (at most ${L.titleChars} characters).`,
  );

export const appDescription = z
  .string({ error: 'description must be a string.' })
  .describe(
    `For the model: when to show this component and what its arguments mean (at most ${L.descriptionChars} characters).`,
  );

export const appInputSchema = z
  .record(z.string(), z.unknown(), { error: 'inputSchema must be a JSON Schema object.' })
  .describe(
    'JSON Schema (draft-07) of the arguments the model passes, which become the component\'s data; "type" must be "object", ' +
      `for example {"type":"object","properties":{"price":{"type":"string"}},"required":["price"]}. Omit it to accept any object (at most ${L.inputSchemaBytes} bytes).`,
  );

export const appActionTools = z
  .record(z.string(), z.string({ error: 'each actionTools value must be a tool name.' }), {
    error: 'actionTools must be an object mapping an action to a tool name.',
  })
  .describe(
    `Which of the component's actions (cpSend) call a tool of this server, with the payload as arguments, for example {"release":"publish_component"} (at most ${L.actionTools}). ` +
      'Every other action is reported to the conversation as a message.',
  );

export const appShape = z.object({
  environment: z.string().describe('The environment whose release the app shows.'),
  title: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()).nullable().describe('Null: any object.'),
  actionTools: z.record(z.string(), z.string()),
  updatedBy: z.string().describe('User id.'),
  updatedAt: z.string(),
  tool: z
    .object({ name: z.string(), resourceUri: z.string(), version: z.int() })
    .nullable()
    .describe(
      'The tool your tools/list shows for it now, named for the release; null while the environment has no release.',
    ),
});

export function toApp(app: ComponentApp, tool: AppTool | undefined): z.infer<typeof appShape> {
  return {
    environment: app.environmentName,
    title: app.title,
    description: app.description,
    inputSchema: app.inputSchema === null ? null : { ...app.inputSchema },
    actionTools: { ...app.actionTools },
    updatedBy: app.updatedBy,
    updatedAt: isoTime(app.updatedAt),
    tool:
      tool === undefined
        ? null
        : { name: tool.name, resourceUri: tool.resourceUri, version: tool.live.release.version },
  };
}
