import type { PreviewKey } from '../../entities/preview-key.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import {
  hashPreviewKey,
  newPreviewKeySecret,
  normalizePreviewKeyName,
  previewKeyPrefix,
} from '../../rules/preview-keys.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { requirePermission } from '../access/require-permission.js';

export interface CreatedPreviewKey {
  readonly key: PreviewKey;
  /** Shown once: only its hash is stored. */
  readonly secret: string;
}

/**
 * A new preview key, for roles that manage the setup (Permission.ManageSetup). The per-organization limit is the
 * repository's atomic check, so parallel creations cannot pass it.
 */
export async function createPreviewKey(
  input: { actor: Actor; organizationId: string; name: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<CreatedPreviewKey> {
  const name = normalizePreviewKeyName(input.name);
  await requirePermission(input.actor, input.organizationId, Permission.ManageSetup, 'create preview keys', deps);
  const secret = newPreviewKeySecret();
  const created = await deps.repos.previewKeys.create(
    {
      id: deps.ids.newId(),
      organizationId: input.organizationId,
      name,
      prefix: previewKeyPrefix(secret),
      secretHash: hashPreviewKey(secret),
      createdBy: input.actor.userId,
      createdAt: deps.clock.now(),
    },
    Limits.previewKeysPerOrganization,
    auditNote(input.actor, deps),
  );
  if (created === 'limit-reached') {
    throw new DomainError(
      ErrorCode.LimitReached,
      `The organization already has ${Limits.previewKeysPerOrganization} preview keys: revoke one it no longer uses, then create this one.`,
      { limit: Limits.previewKeysPerOrganization },
    );
  }
  return { key: created, secret };
}
