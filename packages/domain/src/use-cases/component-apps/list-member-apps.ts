import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { memberApps } from './member-apps.js';
import { appTools, type AppTool } from '../../rules/app-tools.js';

/** The app tools of every organization the actor belongs to, as tools/list shows them (one query). */
export async function listMemberAppTools(input: { actor: Actor }, deps: Pick<DomainDeps, 'repos'>): Promise<AppTool[]> {
  return appTools(await memberApps(input.actor, deps));
}
