import type { Component } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireComponentInScope, withinCredentialOrganization } from './credential-scope.js';
import { requireFound } from './require-found.js';

/**
 * The component, if it belongs to one of the actor's organizations. Unknown ids,
 * malformed ids and other organizations' ids give the same answer, so ids never leak.
 * Through a credential: only its organization's (others NOT_FOUND), and only its components
 * when it names some (others FORBIDDEN, naming the credential).
 */
export async function loadAccessibleComponent(
  actor: Actor,
  componentId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Component> {
  const component = await requireFound('Component', componentId, async (id) => {
    const found = await deps.repos.components.findForMember(id, actor.userId);
    return found && withinCredentialOrganization(actor, found.organizationId) ? found : null;
  });
  requireComponentInScope(actor, component.id);
  return component;
}
