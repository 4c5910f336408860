import type { Repositories } from '../ports/repositories.js';
import { inMemoryOrganizations, inMemoryUsers } from './in-memory-accounts.js';
import { inMemoryApiTokens } from './in-memory-api-tokens.js';
import { inMemoryApps } from './in-memory-apps.js';
import { inMemoryAssignments } from './in-memory-assignments.js';
import { inMemoryAuditTrail } from './in-memory-audit-trail.js';
import { inMemoryCiTrustPolicies } from './in-memory-ci-trust-policies.js';
import { inMemoryComponents, inMemoryVariants } from './in-memory-components.js';
import { inMemoryExperiences } from './in-memory-experiences.js';
import { inMemoryFlows } from './in-memory-flows.js';
import { inMemoryInvitations } from './in-memory-invitations.js';
import { inMemoryMembers } from './in-memory-members.js';
import { inMemoryPreviewKeys } from './in-memory-preview-keys.js';
import { inMemoryWebhookEndpoints } from './in-memory-webhook-endpoints.js';
import { inMemoryEnvironments, inMemoryReleases } from './in-memory-releases.js';
import { inMemoryReleaseRequests } from './in-memory-release-requests.js';
import { inMemoryRollouts } from './in-memory-rollouts.js';
import { InMemoryState } from './in-memory-state.js';
import { inMemoryStaticExports } from './in-memory-static-exports.js';
import { inMemoryUploadSessions } from './in-memory-upload-sessions.js';

export { InMemoryState } from './in-memory-state.js';

/**
 * Plain-array implementations of every repository port, for domain unit tests
 * only. Each method runs without awaiting in between, so it is as atomic as the
 * port demands; the real guarantees are tested against PostgreSQL in packages/db.
 */
export function createInMemoryRepositories(): Repositories & { state: InMemoryState } {
  const state = new InMemoryState();
  return {
    state,
    users: inMemoryUsers(state),
    organizations: inMemoryOrganizations(state),
    components: inMemoryComponents(state),
    variants: inMemoryVariants(state),
    uploadSessions: inMemoryUploadSessions(state),
    environments: inMemoryEnvironments(state),
    releases: inMemoryReleases(state),
    releaseRequests: inMemoryReleaseRequests(state),
    flows: inMemoryFlows(state),
    previewKeys: inMemoryPreviewKeys(state),
    auditTrail: inMemoryAuditTrail(state),
    invitations: inMemoryInvitations(state),
    members: inMemoryMembers(state),
    staticExports: inMemoryStaticExports(state),
    webhookEndpoints: inMemoryWebhookEndpoints(state),
    experiences: inMemoryExperiences(state),
    rollouts: inMemoryRollouts(state),
    assignments: inMemoryAssignments(state),
    apps: inMemoryApps(state),
    apiTokens: inMemoryApiTokens(state),
    ciTrustPolicies: inMemoryCiTrustPolicies(state),
  };
}
