import type { Component } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import { toTagEdit, type TagEditRequest } from '../../rules/tags.js';
import { Permission } from '../../rules/roles.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requirePermission } from '../access/require-permission.js';

/** Edits tags in place (members and up; viewers are FORBIDDEN): no new variant; `updatedAt` moves. See rules/tags.ts for the rules. */
export async function editComponentTags(
  input: TagEditRequest & { actor: Actor; componentId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<Component> {
  const edit = toTagEdit(input);
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  await requirePermission(input.actor, component.organizationId, Permission.Write, 'edit tags', deps);
  const updated = await deps.repos.components.editTags(input.componentId, edit, {
    now: deps.clock.now(),
    maxTags: Limits.tagsPerComponent,
  });
  if (!updated) throw notFound('Component', input.componentId);
  return updated;
}
