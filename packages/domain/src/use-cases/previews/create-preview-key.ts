import type { PreviewKey } from '../../entities/preview-key.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import {
  hashPreviewKey,
  newPreviewKeySecret,
  normalizePreviewKeyName,
  previewKeyPrefix,
} from '../../rules/preview-keys.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { createWithinLimit, type OrganizationLimit } from '../access/create-within-limit.js';

export interface CreatedPreviewKey {
  readonly key: PreviewKey;
  /** Shown once: only its hash is stored. */
  readonly secret: string;
}

const PREVIEW_KEYS: OrganizationLimit = {
  limit: Limits.previewKeysPerOrganization,
  things: 'preview keys',
  advice: 'revoke one it no longer uses, then create this one',
};

/**
 * A new preview key, for roles that manage the setup (Permission.ManageSetup). The per-organization limit is the
 * repository's atomic check, so parallel creations cannot pass it.
 */
export async function createPreviewKey(
  input: { actor: Actor; organizationId: string; name: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<CreatedPreviewKey> {
  const name = normalizePreviewKeyName(input.name);
  const access = { permission: Permission.ManageSetup, what: 'create preview keys' };
  const secret = newPreviewKeySecret();
  const key = await auditedChange(input, access, deps, (stamp) =>
    createWithinLimit(PREVIEW_KEYS, (limit) =>
      deps.repos.previewKeys.create(
        {
          id: deps.ids.newId(),
          organizationId: input.organizationId,
          name,
          prefix: previewKeyPrefix(secret),
          secretHash: hashPreviewKey(secret),
          createdBy: input.actor.userId,
          createdAt: stamp.now,
        },
        limit,
        stamp.audit,
      ),
    ),
  );
  return { key, secret };
}
