import type { Component } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';

/**
 * The component, if it belongs to one of the actor's organizations. Unknown ids,
 * malformed ids and other organizations' ids give the same answer, so ids never leak.
 */
export async function loadAccessibleComponent(
  actor: Actor,
  componentId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Component> {
  const component = isUuid(componentId)
    ? await deps.repos.components.findForMember(componentId, actor.userId)
    : null;
  if (!component) throw notFound('Component', componentId);
  return component;
}
