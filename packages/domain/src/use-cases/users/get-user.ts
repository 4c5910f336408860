import type { Actor, User } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { findUser } from './find-user.js';

export async function getUser({ actor }: { actor: Actor }, deps: Pick<DomainDeps, 'repos'>): Promise<User> {
  const user = await findUser({ userId: actor.userId }, deps);
  if (!user) throw notFound('User', actor.userId);
  return user;
}
