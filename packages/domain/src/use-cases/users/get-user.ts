import type { Actor, User } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';

export async function getUser({ actor }: { actor: Actor }, deps: Pick<DomainDeps, 'repos'>): Promise<User> {
  const user = isUuid(actor.userId) ? await deps.repos.users.findById(actor.userId) : null;
  if (!user) throw notFound('User', actor.userId);
  return user;
}
