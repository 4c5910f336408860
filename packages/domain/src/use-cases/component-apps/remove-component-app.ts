import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requirePermission } from '../access/require-permission.js';

/** Stops offering the component as an app: its tool leaves every member's list at their next tools/list. */
export async function removeComponentApp(input: { actor: Actor; componentId: string }, deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>): Promise<void> {
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  await requirePermission(input.actor, component.organizationId, Permission.ManageSetup, 'stop offering components as apps', deps);
  const removed = await deps.repos.apps.remove({ componentId: component.id, removedBy: input.actor.userId, now: deps.clock.now(), audit: auditNote(input.actor, deps) });
  if (!removed) throw notFound('App of component', component.id);
}
