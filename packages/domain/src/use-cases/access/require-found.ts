import { notFound } from '../../errors/factories.js';
import { isUuid } from '../../rules/ids.js';

/**
 * What `find` answers for an id the caller gave (a read, or a write keyed by it), or NOT_FOUND naming
 * `what`. A malformed id is never looked up: it answers as an unknown one, so ids never leak.
 */
export async function requireFound<T>(
  what: string,
  id: string,
  find: (id: string) => Promise<T | null | false>,
): Promise<T> {
  const found = isUuid(id) ? await find(id) : null;
  if (!found) throw notFound(what, id);
  return found;
}
