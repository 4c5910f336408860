import { removeComponentApp as removeComponentAppUseCase } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool } from './define.js';
import { componentId } from './params.js';

export const removeComponentApp = defineTool({
  name: 'remove_component_app',
  title: 'Stop offering component as app',
  description:
    "Stops offering a component as an app: its show_… tool leaves every member's tools/list, and calls of it answer NOT_FOUND. " +
    'The component and its releases are unchanged. Owners and admins only (FORBIDDEN otherwise); NOT_FOUND when it is not an app.',
  scope: Scope.Write,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: z.strictObject({ componentId }),
  output: z.object({ message: z.string(), componentId: z.string() }),
  async run(args, ctx) {
    await removeComponentAppUseCase(
      { actor: actorOf(ctx), componentId: args.componentId },
      ctx.domain,
    );
    return {
      message:
        'The component is no longer an app: no assistant lists its tool any more. set_component_app offers it again.',
      componentId: args.componentId,
    };
  },
});
