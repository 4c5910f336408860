import { getComponentApp as getComponentAppUseCase, listMemberAppTools } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { appShape, toApp } from './app-shapes.js';
import { actorOf, defineTool } from './define.js';
import { componentId } from './params.js';

export const getComponentApp = defineTool({
  name: 'get_component_app',
  title: 'Get component app',
  description:
    'Reads whether a component is offered as an app in AI assistants, and how: the environment whose release it shows, its title, ' +
    'its description for the model, its input schema, its action → tool mappings, and the tool (show_<component>_v<version>) your tools/list shows for it. ' +
    'Next: set_component_app to offer or change it, remove_component_app to stop.',
  scope: Scope.Read,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: z.strictObject({ componentId }),
  output: z.object({
    message: z.string().describe('The answer in words.'),
    componentId: z.string(),
    app: appShape.nullable().describe('Null: the component is not an app.'),
  }),
  async run(args, ctx) {
    const actor = actorOf(ctx);
    const app = await getComponentAppUseCase({ actor, componentId: args.componentId }, ctx.domain);
    if (app === null) {
      return {
        message:
          'This component is not an app: no assistant lists a tool for it. An owner or admin offers it with set_component_app.',
        componentId: args.componentId,
        app: null,
      };
    }
    const tool = (await listMemberAppTools({ actor }, ctx.domain)).find(
      (candidate) => candidate.live.app.componentId === app.componentId,
    );
    return {
      message:
        tool === undefined
          ? `"${app.title}" shows the release of ${app.environmentName}, which has none now: no tool is listed until a version is published there.`
          : `"${app.title}" is listed as ${tool.name}, showing version ${tool.live.release.version} as released to ${app.environmentName}.`,
      componentId: app.componentId,
      app: toApp(app, tool),
    };
  },
});
