import { AuditKind } from '../entities/audit-event.js';
import type { CiTrustPolicies } from '../ports/ci-trust-policies.js';
import { ciPolicyAuditDetails } from '../rules/credential-audit.js';
import { auditEventFor } from './in-memory-audit.js';
import type { InMemoryState } from './in-memory-state.js';

const oldestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

/** CI trust policies in the state's array; each method runs without an await in between, so it is as atomic as the port asks. */
export function inMemoryCiTrustPolicies(state: InMemoryState): CiTrustPolicies {
  return {
    async create(policy, limit, audit) {
      const theirs = state.ciTrustPolicies.filter((p) => p.organizationId === policy.organizationId);
      if (theirs.some((p) => p.name === policy.name)) return 'name-taken';
      if (theirs.length >= limit) return 'limit-reached';
      const stored = structuredClone({ ...policy, grantId: null });
      state.ciTrustPolicies.push(stored);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId: policy.organizationId,
          kind: AuditKind.CiPolicyCreated,
          now: policy.createdAt,
          details: ciPolicyAuditDetails(policy),
        }),
      );
      return structuredClone(stored);
    },
    listForOrganization: async (organizationId) =>
      state.ciTrustPolicies.filter((p) => p.organizationId === organizationId).sort(oldestFirst).map((p) => structuredClone(p)),
    async remove({ organizationId, policyId, now, audit }) {
      const index = state.ciTrustPolicies.findIndex((p) => p.id === policyId && p.organizationId === organizationId);
      if (index === -1) return null;
      const policy = state.ciTrustPolicies.splice(index, 1)[0]!;
      if (policy.grantId !== null) state.dropOidcGrant(policy.grantId);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId,
          kind: AuditKind.CiPolicyDeleted,
          now,
          details: ciPolicyAuditDetails(policy),
        }),
      );
      return policy;
    },
    findCandidates: async (provider, ownerId) =>
      state.ciTrustPolicies
        .filter((p) => p.provider === provider && p.ownerId === ownerId)
        .sort(oldestFirst)
        .map((p) => structuredClone(p)),
    async attachGrant({ policyId, grantId, expected }) {
      const index = state.ciTrustPolicies.findIndex((p) => p.id === policyId);
      const policy = state.ciTrustPolicies[index];
      if (policy === undefined) return null;
      if (policy.grantId !== expected) return policy.grantId;
      state.ciTrustPolicies[index] = { ...policy, grantId };
      return grantId;
    },
    async claimTokenId({ issuer, jti, expiresAt, now }) {
      for (const [key, until] of state.ciTokenIds) if (until <= now) state.ciTokenIds.delete(key);
      const key = `${issuer}\u0000${jti}`;
      if (state.ciTokenIds.has(key)) return false;
      state.ciTokenIds.set(key, expiresAt);
      return true;
    },
  };
}
