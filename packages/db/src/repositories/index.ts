import type { Repositories } from '@cp/domain';
import type { Database } from '../client.js';
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
import { createUploadSessions } from './upload-sessions.js';
import { createUsers } from './users.js';
import { createVariants } from './variants.js';

/** Every domain repository port, over one database (PostgreSQL or PGlite). */
export function createRepositories({ prisma, sql }: Pick<Database, 'prisma' | 'sql'>): Repositories {
  return {
    users: createUsers(prisma),
    organizations: createOrganizations(prisma),
    components: createComponents(prisma, sql),
    variants: createVariants(prisma, sql),
    uploadSessions: createUploadSessions(prisma),
    environments: createEnvironments(prisma),
    releases: createReleases(prisma),
    releaseRequests: createReleaseRequests(prisma),
    flows: createFlows(prisma),
    previewKeys: createPreviewKeys(prisma),
    auditTrail: createAuditTrail(prisma),
    invitations: createInvitations(prisma),
    members: createMembers(prisma),
  };
}
