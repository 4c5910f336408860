import { DomainError, ErrorCode, isDomainError } from '@cp/domain';

/**
 * A rollout change made on a revision that is no longer the rollout's (the guard or someone
 * else moved it, or it ended): the repository's CONFLICT, said so that the assistant reads the
 * rollout again rather than retrying the same revision.
 */
export async function rereadOnConflict<T>(
  expectedRevision: number,
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(isDomainError(error) && error.code === ErrorCode.Conflict)) throw error;
    throw new DomainError(
      ErrorCode.Conflict,
      `The rollout is no longer at revision ${expectedRevision}: it changed since you read it (the guard or someone else moved it, or it ended). ` +
        'Call get_rollout to read its state and revision again, then decide with that revision.',
    );
  }
}
