import type { PreviewKey } from '../../entities/preview-key.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { requireFound } from '../access/require-found.js';

/** Revokes a key of the organization (idempotent); hosts using it get 404 for previews from the next request. */
export async function revokePreviewKey(
  input: { actor: Actor; organizationId: string; keyId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<PreviewKey> {
  const access = { permission: Permission.ManageSetup, what: 'revoke preview keys' };
  return auditedChange(input, access, deps, (stamp) =>
    requireFound('Preview key', input.keyId, (keyId) =>
      deps.repos.previewKeys.revoke({ organizationId: input.organizationId, keyId, ...stamp }),
    ),
  );
}
