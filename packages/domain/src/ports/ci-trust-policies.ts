import type { AuditNote } from '../entities/audit-event.js';
import type { CiProvider, CiTrustPolicy } from '../entities/credential.js';

export type NewCiTrustPolicy = Omit<CiTrustPolicy, 'grantId'>;

export interface CiTrustPolicies {
  /**
   * Atomic: adds the policy unless the organization holds `limit` policies or one with the same name
   * (`'name-taken'`), also under parallel calls. Writes a CiPolicyCreated audit row with its settings.
   */
  create(policy: NewCiTrustPolicy, limit: number, audit: AuditNote): Promise<CiTrustPolicy | 'limit-reached' | 'name-taken'>;
  /** The organization's policies, oldest first. */
  listForOrganization(organizationId: string): Promise<CiTrustPolicy[]>;
  /**
   * Atomic: deletes the policy and its OAuth grant with every token under it (its access tokens stop at
   * the next grant check); writes a CiPolicyDeleted audit row. null when the organization has no such policy.
   */
  remove(input: { organizationId: string; policyId: string; now: Date; audit: AuditNote }): Promise<CiTrustPolicy | null>;
  /** Every organization's policies for this provider and owner id (the exchange's candidates), oldest first. */
  findCandidates(provider: CiProvider, ownerId: string): Promise<CiTrustPolicy[]>;
  /** As ApiTokens.attachGrant; null when the policy is gone. */
  attachGrant(input: { policyId: string; grantId: string; expected: string | null }): Promise<string | null>;
  /**
   * Atomic: records a CI token's `jti` for its issuer until `expiresAt`; false when it was recorded
   * already (a replay), also when two exchanges present it at once. Expired records may be purged.
   */
  claimTokenId(input: { issuer: string; jti: string; expiresAt: Date; now: Date }): Promise<boolean>;
}
