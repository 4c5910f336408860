import type { PreviewKey } from '../../entities/preview-key.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { requireManager } from '../access/require-manager.js';

/** Revokes a key of the organization (idempotent); hosts using it get 404 for previews from the next request. */
export async function revokePreviewKey(
  input: { actor: Actor; organizationId: string; keyId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<PreviewKey> {
  await requireManager(input.actor, input.organizationId, 'revoke preview keys', deps);
  const revoked = isUuid(input.keyId)
    ? await deps.repos.previewKeys.revoke({
        organizationId: input.organizationId,
        keyId: input.keyId,
        now: deps.clock.now(),
      })
    : null;
  if (!revoked) throw notFound('Preview key', input.keyId);
  return revoked;
}
