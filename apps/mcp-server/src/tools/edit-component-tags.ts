import { editComponentTags as editComponentTagsUseCase, Limits } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool } from './define.js';
import { componentId, tagList } from './params.js';

export const editComponentTags = defineTool({
  name: 'edit_component_tags',
  title: 'Edit component tags',
  description:
    'Changes a component\'s tags in place (no new version). One mode per call: "add" and/or "remove", or "set" alone ' +
    '(replaces the whole list; "set": [] clears it). Tags are trimmed, de-duplicated and case-sensitive; ' +
    `at most ${Limits.tagMaxLength} characters each and ${Limits.tagsPerComponent} per component. A tag named in both add and remove is refused. ` +
    'Returns the resulting tag list.',
  scope: Scope.Write,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    componentId,
    add: tagList('add', 'add; tags already present are ignored'),
    remove: tagList('remove', 'remove; tags not present are ignored'),
    set: tagList('set', 'replace the whole list with; [] clears all; not combinable with add/remove'),
  }),
  output: z.object({ componentId: z.string(), name: z.string(), tags: z.array(z.string()) }),
  async run(args, ctx) {
    const component = await editComponentTagsUseCase(
      { actor: actorOf(ctx), componentId: args.componentId, add: args.add, remove: args.remove, set: args.set },
      ctx.domain,
    );
    return { componentId: component.id, name: component.name, tags: [...component.tags] };
  },
});
