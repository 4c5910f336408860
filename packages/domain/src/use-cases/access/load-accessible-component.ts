import type { Component } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireFound } from './require-found.js';

/**
 * The component, if it belongs to one of the actor's organizations. Unknown ids,
 * malformed ids and other organizations' ids give the same answer, so ids never leak.
 */
export const loadAccessibleComponent = (
  actor: Actor,
  componentId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Component> =>
  requireFound('Component', componentId, (id) =>
    deps.repos.components.findForMember(id, actor.userId),
  );
