import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { memberApps } from './member-apps.js';
import { lookUpAppTool, type AppToolLookup } from '../../rules/app-tools.js';

/** A called `show_…` name among the actor's apps now (one query, as tools/list). */
export async function findMemberAppTool(
  input: { actor: Actor; name: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<AppToolLookup> {
  return lookUpAppTool(await memberApps(input.actor, deps), input.name);
}
