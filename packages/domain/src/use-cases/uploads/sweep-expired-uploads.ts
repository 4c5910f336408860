import { UploadState } from '../../entities/upload-session.js';
import type { DomainDeps } from '../../ports/deps.js';

export interface SweepResult {
  /** Pending sessions marked expired. */
  readonly expired: number;
  /** Sessions whose staging object this sweep removed (and recorded). */
  readonly stagingRemoved: number;
  /** Removals that failed; those sessions are tried again at the next sweep. */
  readonly objectsNotRemoved: number;
}

/**
 * Once a session's presigned URL has expired (it expires with the session), removes
 * its staging object whatever the session's state: confirm removes it too, but a PUT
 * to the still-valid URL after confirm puts one back. Pending sessions become expired.
 * Each session is swept once: `markStagingRemoved` records it, and a failed removal
 * leaves it for the next sweep. Safe from several processes at once (removal is
 * idempotent; one of them records it).
 */
export async function sweepExpiredUploads(
  { limit = 100 }: { limit?: number },
  deps: Pick<DomainDeps, 'repos' | 'objects' | 'clock'>,
): Promise<SweepResult> {
  const now = deps.clock.now();
  const sessions = await deps.repos.uploadSessions.listToSweep(now, limit);
  let expired = 0;
  let stagingRemoved = 0;
  let objectsNotRemoved = 0;
  for (const session of sessions) {
    if (
      session.state === UploadState.Pending &&
      (await deps.repos.uploadSessions.markExpired(session.id))
    )
      expired += 1;
    try {
      await deps.objects.remove(session.stagingKey);
    } catch {
      objectsNotRemoved += 1;
      continue;
    }
    if (await deps.repos.uploadSessions.markStagingRemoved(session.id, now)) stagingRemoved += 1;
  }
  return { expired, stagingRemoved, objectsNotRemoved };
}
