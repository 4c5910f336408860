import type { AuditNote } from '../entities/audit-event.js';
import type { PreviewKey } from '../entities/preview-key.js';

export interface NewPreviewKey {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly prefix: string;
  /** rules/preview-keys.ts `hashPreviewKey` of the secret. */
  readonly secretHash: string;
  readonly createdBy: string;
  readonly createdAt: Date;
}

export interface PreviewKeys {
  /**
   * Atomic: adds the key unless the organization already holds `limit`
   * unrevoked keys, also under parallel calls from several processes. Writes a
   * PreviewKeyCreated audit row (id, name, prefix; never the secret) with the key only.
   */
  create(key: NewPreviewKey, limit: number, audit: AuditNote): Promise<PreviewKey | 'limit-reached'>;
  /** The organization's keys, revoked ones included, newest first. */
  listForOrganization(organizationId: string): Promise<PreviewKey[]>;
  /**
   * Revokes the organization's key (the first revocation's time stays); null when it has no such key.
   * Only the first revocation writes a PreviewKeyRevoked audit row.
   */
  revoke(input: { organizationId: string; keyId: string; now: Date; audit: AuditNote }): Promise<PreviewKey | null>;
  /** Whether the organization holds an unrevoked key with this secret hash. */
  isActive(organizationId: string, secretHash: string): Promise<boolean>;
}
