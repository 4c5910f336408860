import type { Organization } from '../../entities/organization.js';
import type { DomainDeps } from '../../ports/deps.js';
import { hashPreviewKey, isPreviewKeySecret } from '../../rules/preview-keys.js';

/**
 * Delivery's check: anyone may read the previews of an organization that keeps
 * them public; otherwise only a caller presenting one of its unrevoked keys.
 */
export async function canReadPreview(
  input: {
    organization: Pick<Organization, 'id' | 'privatePreviews'>;
    presentedKey: string | null;
  },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<boolean> {
  if (!input.organization.privatePreviews) return true;
  const key = input.presentedKey;
  if (key === null || !isPreviewKeySecret(key)) return false;
  return deps.repos.previewKeys.isActive(input.organization.id, hashPreviewKey(key));
}
