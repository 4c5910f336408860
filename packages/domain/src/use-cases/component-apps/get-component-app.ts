import type { ComponentApp } from '../../entities/component-app.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';

/** The component's app settings (any member may read them), or null when it is not an app. */
export async function getComponentApp(input: { actor: Actor; componentId: string }, deps: Pick<DomainDeps, 'repos'>): Promise<ComponentApp | null> {
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  return deps.repos.apps.find(component.id);
}
