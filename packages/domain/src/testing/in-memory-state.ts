import type { AuditEvent, AuditValue } from '../entities/audit-event.js';
import type { Component, Variant } from '../entities/component.js';
import type { ApiToken, CiTrustPolicy } from '../entities/credential.js';
import type { ComponentApp } from '../entities/component-app.js';
import type { ExperienceDraft, ExperienceRevision } from '../entities/experience.js';
import type { Flow } from '../entities/flow.js';
import type { Invitation } from '../entities/invitation.js';
import type { Membership, Organization } from '../entities/organization.js';
import type { PreviewKey } from '../entities/preview-key.js';
import type { Environment, Release, ReleaseEvent } from '../entities/release.js';
import type { ReleaseRequest } from '../entities/release-request.js';
import type { GuardWindow, Rollout } from '../entities/rollout.js';
import type { StaticExport } from '../entities/static-export.js';
import type { UploadSession } from '../entities/upload-session.js';
import type { User } from '../entities/user.js';
import type { WebhookEndpoint, WebhookEventType } from '../entities/webhook.js';

/** An invitation as stored: with its token's hash. */
export type StoredInvitation = Invitation & { readonly tokenHash: string };
export type StoredReleaseRequest = Omit<
  ReleaseRequest,
  'organizationId' | 'componentName' | 'environmentName' | 'variantSequence'
>;

/** An app as stored: without the names the fake joins in (component, environment). */
export type StoredApp = Omit<ComponentApp, 'componentName' | 'environmentName'>;
/** A webhook endpoint as stored: with its signing secret. */
export type StoredWebhookEndpoint = WebhookEndpoint & { readonly secret: string };

/** The rows behind the in-memory repositories: tests read and seed it directly. */
export class InMemoryState {
  users: User[] = [];
  organizations: Organization[] = [];
  /** `joinedAt` absent: joined when the organization was created (as the migration fills old rows). */
  memberships: (Membership & { joinedAt?: Date })[] = [];
  components: Component[] = [];
  variants: Variant[] = [];
  uploadSessions: UploadSession[] = [];
  environments: Environment[] = [];
  releases: Release[] = [];
  releaseEvents: ReleaseEvent[] = [];
  /** Stored without the joined names (component, environment, variant sequence), read through the fake. */
  releaseRequests: StoredReleaseRequest[] = [];
  flows: Flow[] = [];
  experienceDrafts: ExperienceDraft[] = [];
  /** Every published revision, in publish order. */
  experienceRevisions: ExperienceRevision[] = [];
  rollouts: Rollout[] = [];
  /** Stored without the joined names (component, environment), read through the fake. */
  apps: StoredApp[] = [];
  rolloutWindows: (GuardWindow & { rolloutId: string })[] = [];
  /** The assignment revision each component environment (`componentId:environmentId`) last took. */
  assignmentRevisions = new Map<string, number>();
  private lastAssignmentRevision = 0;

  /** The in-memory twin of the database's assignment sequence: unique and increasing across every change. */
  bumpAssignment(componentId: string, environmentId: string): number {
    this.lastAssignmentRevision += 1;
    this.assignmentRevisions.set(`${componentId}:${environmentId}`, this.lastAssignmentRevision);
    return this.lastAssignmentRevision;
  }
  passwordHashes = new Map<string, string>();
  previewKeys: (PreviewKey & { secretHash: string })[] = [];
  apiTokens: (ApiToken & { secretHash: string })[] = [];
  ciTrustPolicies: CiTrustPolicy[] = [];
  /** The CI tokens' ids seen (`issuer` NUL `jti`), with when each may be forgotten. */
  ciTokenIds = new Map<string, Date>();
  /**
   * Deletes an OAuth grant with every row stored under it: the in-memory OIDC storage sets it when it is
   * given this state (createInMemoryOidcStorage(clock, state)); without one there is no grant to delete.
   */
  dropOidcGrant: (grantId: string) => void = () => undefined;
  /** The audit trail in insertion order (the fakes' `recordAudit` appends). */
  auditEvents: AuditEvent[] = [];
  invitations: StoredInvitation[] = [];
  staticExports: StaticExport[] = [];
  /** The export jobs the fakes enqueued, in order (the queue of packages/db). */
  exportJobs: { organizationId: string; full: boolean }[] = [];

  /** The in-memory twin of packages/db's export enqueue: a job only for an organization that opted in. */
  enqueueExport(organizationId: string, full = false): void {
    if (this.staticExports.some((e) => e.organizationId === organizationId && e.enabled)) this.exportJobs.push({ organizationId, full });
  }
  webhookEndpoints: StoredWebhookEndpoint[] = [];
  /** The webhook events the release, experience and rollout fakes enqueued (type and body `data`), in order. */
  webhookEvents: { organizationId: string; componentId: string; type: WebhookEventType; data: { [key: string]: AuditValue } }[] = [];

  /** The in-memory twin of packages/db's recordAudit: the fakes call it where the repositories write a row. */
  recordAudit(...events: AuditEvent[]): void {
    this.auditEvents.push(...events);
  }
}

export const byKey = <T extends { id: string }>(rows: T[], id: string): T | null => rows.find((row) => row.id === id) ?? null;
