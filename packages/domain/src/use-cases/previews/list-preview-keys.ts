import type { PreviewKey } from '../../entities/preview-key.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireMembership } from '../access/require-membership.js';

/** Every member sees the keys (names and prefixes, never secrets); only owners and admins change them. */
export async function listPreviewKeys(
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<PreviewKey[]> {
  await requireMembership(input.actor, input.organizationId, deps);
  return deps.repos.previewKeys.listForOrganization(input.organizationId);
}
