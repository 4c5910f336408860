import type { Repositories } from '@cp/domain';
import type { Database } from '../client.js';
import { createApiTokens } from './api-tokens.js';
import { createAssignments } from './assignments.js';
import { createAuditTrail } from './audit-trail.js';
import { createCiTrustPolicies } from './ci-trust-policies.js';
import { createComponentApps } from './component-apps.js';
import { createComponents } from './components.js';
import { createEnvironments } from './environments.js';
import { createExperiences } from './experiences.js';
import { createFlows } from './flows.js';
import { createInvitations } from './invitations.js';
import { createMembers } from './members.js';
import { createOrganizations } from './organizations.js';
import { createPreviewKeys } from './preview-keys.js';
import { createReleaseRequests } from './release-requests.js';
import { createReleases } from './releases.js';
import { createRollouts } from './rollouts.js';
import { staticExportQueue } from './static-export-queue.js';
import { createStaticExports } from './static-exports.js';
import { createUploadSessions } from './upload-sessions.js';
import { createUsers } from './users.js';
import { createVariants } from './variants.js';
import { createWebhookEndpoints } from './webhook-endpoints.js';
import { createJobSender } from '../jobs/job-sender.js';
import { withUnavailableAsDomainError } from '../connection/unavailable.js';

/**
 * Every domain repository port, over one database (PostgreSQL or PGlite). A database
 * that cannot be reached rejects every call with the domain's DATABASE_UNAVAILABLE.
 */
export function createRepositories({ prisma, sql }: Pick<Database, 'prisma' | 'sql'>): Repositories {
  // Webhook events are enqueued by the writes that cause them, inside their transactions.
  const jobs = createJobSender();
  const exportJobs = staticExportQueue(jobs);
  return withUnavailableAsDomainError({
    users: createUsers(prisma),
    organizations: createOrganizations(prisma, exportJobs),
    components: createComponents(prisma, sql, jobs),
    variants: createVariants(prisma, sql),
    uploadSessions: createUploadSessions(prisma, jobs),
    environments: createEnvironments(prisma, exportJobs),
    releases: createReleases(prisma, sql, jobs),
    releaseRequests: createReleaseRequests(prisma, jobs),
    flows: createFlows(prisma),
    previewKeys: createPreviewKeys(prisma),
    auditTrail: createAuditTrail(prisma),
    invitations: createInvitations(prisma),
    members: createMembers(prisma),
    staticExports: createStaticExports(prisma, exportJobs),
    webhookEndpoints: createWebhookEndpoints(prisma, jobs),
    experiences: createExperiences(prisma, jobs),
    rollouts: createRollouts(prisma, jobs),
    apps: createComponentApps(prisma, jobs),
    assignments: createAssignments(sql),
    apiTokens: createApiTokens(prisma),
    ciTrustPolicies: createCiTrustPolicies(prisma),
  });
}
