import type { LiveApp } from '../../entities/component-app.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { componentsInScope, withinCredentialOrganization } from '../access/credential-scope.js';

/** The live apps of the actor's organizations (one query), narrowed to a credential's organization and components. */
export async function memberApps(actor: Actor, deps: Pick<DomainDeps, 'repos'>): Promise<LiveApp[]> {
  const apps = await deps.repos.apps.listForMember(actor.userId);
  return componentsInScope(
    actor,
    apps.filter((live) => withinCredentialOrganization(actor, live.app.organizationId)),
    (live) => live.app.componentId,
  );
}
