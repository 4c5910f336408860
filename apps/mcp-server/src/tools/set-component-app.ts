import { listMemberAppTools, saveComponentApp } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import {
  appActionTools,
  appDescription,
  appInputSchema,
  appShape,
  appTitle,
  toApp,
} from './app-shapes.js';
import { actorOf, defineTool } from './define.js';
import { componentId, environmentName } from './params.js';

export const setComponentApp = defineTool({
  name: 'set_component_app',
  title: 'Offer component as app',
  description:
    'Offers a component as an app in AI assistants, or changes how (replacing every setting): every member of its organization then finds ' +
    'a tool show_<component>_v<version> in tools/list that shows the release of "environment" in the conversation, with the model\'s arguments ' +
    "as the component's data (cpReceive). The environment must have a release (CONFLICT otherwise: publish_component first). " +
    'Owners and admins only (FORBIDDEN otherwise). An invalid inputSchema or action name answers INVALID_INPUT naming the field.',
  scope: Scope.Write,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: z.strictObject({
    componentId,
    environment: environmentName.describe(
      'The environment whose release the app shows, for example "prod".',
    ),
    title: appTitle,
    description: appDescription,
    inputSchema: appInputSchema.optional(),
    actionTools: appActionTools.optional(),
  }),
  output: z.object({
    message: z.string(),
    componentId: z.string(),
    app: appShape,
    nextStep: z.string(),
  }),
  async run(args, ctx) {
    const actor = actorOf(ctx);
    const app = await saveComponentApp(
      {
        actor,
        componentId: args.componentId,
        settings: {
          environment: args.environment,
          title: args.title,
          description: args.description,
          inputSchema: args.inputSchema ?? null,
          actionTools: args.actionTools ?? {},
        },
      },
      ctx.domain,
    );
    const tool = (await listMemberAppTools({ actor }, ctx.domain)).find(
      (candidate) => candidate.live.app.componentId === app.componentId,
    );
    return {
      message: `Saved: "${app.title}" shows the release of ${app.environmentName}${tool === undefined ? '' : ` as the tool ${tool.name}`}.`,
      componentId: app.componentId,
      app: toApp(app, tool),
      nextStep:
        'Members see the tool at their next tools/list (their assistant may need to reconnect). Each publish to the environment renames it to the new version.',
    };
  },
});
