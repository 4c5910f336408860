import type { DomainDeps } from '../../ports/deps.js';

/**
 * Marks pending sessions past their expiry as expired and removes their staged
 * objects. Safe to run from several processes at once: only the process whose
 * `markExpired` wins removes the object.
 */
export async function sweepExpiredUploads(
  { limit = 100 }: { limit?: number },
  deps: Pick<DomainDeps, 'repos' | 'objects' | 'clock'>,
): Promise<{ expired: number; objectsNotRemoved: number }> {
  const sessions = await deps.repos.uploadSessions.listExpired(deps.clock.now(), limit);
  let expired = 0;
  let objectsNotRemoved = 0;
  for (const session of sessions) {
    if (!(await deps.repos.uploadSessions.markExpired(session.id))) continue;
    expired += 1;
    try {
      await deps.objects.remove(session.stagingKey);
    } catch {
      objectsNotRemoved += 1;
    }
  }
  return { expired, objectsNotRemoved };
}
