import type { Repositories } from '@cp/domain';
import type { Database } from '../client.js';
import { createJobSender } from '../jobs/job-sender.js';
import { createAuditTrail } from './audit-trail.js';
import { createComponents } from './components.js';
import { createEnvironments } from './environments.js';
import { createFlows } from './flows.js';
import { createInvitations } from './invitations.js';
import { createMembers } from './members.js';
import { createOrganizations } from './organizations.js';
import { createPreviewKeys } from './preview-keys.js';
import { createReleaseRequests } from './release-requests.js';
import { createReleases } from './releases.js';
import { staticExportQueue } from './static-export-queue.js';
import { createStaticExports } from './static-exports.js';
import { createUploadSessions } from './upload-sessions.js';
import { createUsers } from './users.js';
import { createVariants } from './variants.js';

/** Every domain repository port, over one database (PostgreSQL or PGlite). */
export function createRepositories({ prisma, sql }: Pick<Database, 'prisma' | 'sql'>): Repositories {
  const jobs = createJobSender();
  const exportJobs = staticExportQueue(jobs);
  return {
    users: createUsers(prisma),
    organizations: createOrganizations(prisma, exportJobs),
    components: createComponents(prisma, sql),
    variants: createVariants(prisma, sql),
    uploadSessions: createUploadSessions(prisma),
    environments: createEnvironments(prisma, exportJobs),
    releases: createReleases(prisma, exportJobs),
    releaseRequests: createReleaseRequests(prisma, exportJobs),
    flows: createFlows(prisma),
    previewKeys: createPreviewKeys(prisma),
    auditTrail: createAuditTrail(prisma),
    invitations: createInvitations(prisma),
    members: createMembers(prisma),
    staticExports: createStaticExports(prisma, exportJobs),
  };
}
