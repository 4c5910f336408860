import type { ApiTokens } from './api-tokens.js';
import type { AuditTrail } from './audit-trail.js';
import type { CiTrustPolicies } from './ci-trust-policies.js';
import type { Components } from './components.js';
import type { Environments } from './environments.js';
import type { Assignments, Experiences } from './experiences.js';
import type { Flows } from './flows.js';
import type { Invitations } from './invitations.js';
import type { Members } from './members.js';
import type { Organizations } from './organizations.js';
import type { PreviewKeys } from './preview-keys.js';
import type { ReleaseRequests } from './release-requests.js';
import type { Releases } from './releases.js';
import type { Rollouts } from './rollouts.js';
import type { ComponentApps } from './component-apps.js';
import type { StaticExports } from './static-exports.js';
import type { UploadSessions } from './upload-sessions.js';
import type { Users } from './users.js';
import type { Variants } from './variants.js';
import type { WebhookEndpoints } from './webhook-endpoints.js';

/*
 * Ports implemented by packages/db. Methods documented as atomic must keep their
 * guarantee under concurrent calls from several processes: the database does the
 * work (row locks, conditional updates, constraints), not read-modify-write in JS.
 */

export interface Repositories {
  readonly users: Users;
  readonly organizations: Organizations;
  readonly components: Components;
  readonly variants: Variants;
  readonly uploadSessions: UploadSessions;
  readonly environments: Environments;
  readonly releases: Releases;
  readonly releaseRequests: ReleaseRequests;
  readonly flows: Flows;
  readonly previewKeys: PreviewKeys;
  readonly auditTrail: AuditTrail;
  readonly invitations: Invitations;
  readonly members: Members;
  readonly staticExports: StaticExports;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly experiences: Experiences;
  readonly rollouts: Rollouts;
  readonly apps: ComponentApps;
  readonly assignments: Assignments;
  readonly apiTokens: ApiTokens;
  readonly ciTrustPolicies: CiTrustPolicies;
}
