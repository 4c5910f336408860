import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { lookUpAppTool, type AppToolLookup } from '../../rules/app-tools.js';

/** A called `show_…` name among the actor's apps now (one query, as tools/list). */
export async function findMemberAppTool(
  input: { actor: Actor; name: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<AppToolLookup> {
  return lookUpAppTool(await deps.repos.apps.listForMember(input.actor.userId), input.name);
}
