import type { User } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';

/** The user, or null for an unknown or malformed id (token subjects, session ids). */
export async function findUser({ userId }: { userId: string }, deps: Pick<DomainDeps, 'repos'>): Promise<User | null> {
  return isUuid(userId) ? await deps.repos.users.findById(userId) : null;
}
