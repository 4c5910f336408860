import type { PreviewKey } from '../../entities/preview-key.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { requirePermission } from '../access/require-permission.js';

/** Revokes a key of the organization (idempotent); hosts using it get 404 for previews from the next request. */
export async function revokePreviewKey(
  input: { actor: Actor; organizationId: string; keyId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<PreviewKey> {
  await requirePermission(input.actor, input.organizationId, Permission.ManageSetup, 'revoke preview keys', deps);
  const revoked = isUuid(input.keyId)
    ? await deps.repos.previewKeys.revoke({
        organizationId: input.organizationId,
        keyId: input.keyId,
        now: deps.clock.now(),
        audit: auditNote(input.actor, deps),
      })
    : null;
  if (!revoked) throw notFound('Preview key', input.keyId);
  return revoked;
}
