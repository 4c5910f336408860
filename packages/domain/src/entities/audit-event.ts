import type { CredentialVia } from './credential.js';

/**
 * The audit trail: one append-only row per change, written in the change's own transaction
 * by the repository that makes it, so a change and its record commit or fail together.
 */
export const AuditKind = {
  OrganizationCreated: 'organization.created',
  OrganizationRenamed: 'organization.renamed',
  PrivatePreviewsChanged: 'organization.private_previews_changed',
  StaticExportChanged: 'organization.static_export_changed',
  UploadConfirmed: 'upload.confirmed',
  TagsChanged: 'component.tags_changed',
  /** A publish or a rollback (`details.rollback`), direct or through an approved request. */
  ReleasePublished: 'release.published',
  ReleaseRequested: 'release.requested',
  ReleaseApproved: 'release.approved',
  ReleaseDeclined: 'release.declined',
  /** A draft saved is not audited; its publish is (details: revision, salt kept or new, users moved). */
  ExperiencePublished: 'experience.published',
  RolloutStarted: 'rollout.started',
  /** A stage change, by a person or by the guard (`details.by`). */
  RolloutAdvanced: 'rollout.advanced',
  RolloutPaused: 'rollout.paused',
  RolloutResumed: 'rollout.resumed',
  RolloutPromoted: 'rollout.promoted',
  RolloutStopped: 'rollout.stopped',
  /** By the guard, with the windows' figures that decided it. */
  RolloutRolledBack: 'rollout.rolled_back',
  /** Created or changed (`details.created`), with the settings. */
  AppSaved: 'app.saved',
  AppRemoved: 'app.removed',
  EnvironmentCreated: 'environment.created',
  EnvironmentRenamed: 'environment.renamed',
  EnvironmentRemoved: 'environment.removed',
  EnvironmentProtectionChanged: 'environment.protection_changed',
  FlowCreated: 'flow.created',
  FlowChanged: 'flow.changed',
  InvitationCreated: 'invitation.created',
  InvitationRevoked: 'invitation.revoked',
  InvitationAccepted: 'invitation.accepted',
  MemberRoleChanged: 'member.role_changed',
  MemberRemoved: 'member.removed',
  MemberLeft: 'member.left',
  OwnershipTransferred: 'member.ownership_transferred',
  PreviewKeyCreated: 'preview_key.created',
  PreviewKeyRevoked: 'preview_key.revoked',
  WebhookEndpointCreated: 'webhook.created',
  /** Event types, enabled or disabled (by a person, or by the worker after the last retry failed), secret rotated. */
  WebhookEndpointChanged: 'webhook.changed',
  WebhookEndpointDeleted: 'webhook.deleted',
  /** Recorded in each organization of the user who revoked it: it held access to all of them. */
  ApplicationRevoked: 'application.revoked',
  ApiTokenCreated: 'api_token.created',
  ApiTokenRevoked: 'api_token.revoked',
  CiPolicyCreated: 'ci_policy.created',
  CiPolicyDeleted: 'ci_policy.deleted',
} as const;
export type AuditKind = (typeof AuditKind)[keyof typeof AuditKind];

export type AuditValue = string | number | boolean | null | readonly AuditValue[] | { readonly [key: string]: AuditValue };

/** One recorded change. Never updated (the database refuses UPDATE on the table). */
export interface AuditEvent {
  readonly id: string;
  readonly organizationId: string;
  /** The user who made the change; an id only, so the record outlives the account. */
  readonly actorId: string;
  /** Set when the change came through an API token or a CI trust policy: which, and (CI) the repository, workflow, run and commit. */
  readonly via: CredentialVia | null;
  readonly kind: AuditKind;
  /** The component the change is about, for the component filter. */
  readonly componentId: string | null;
  /** The member the change is about (role changes, removals, acceptances). */
  readonly subjectUserId: string | null;
  /** The before/after that matters, e.g. `{ before: ['a'], after: ['a', 'b'] }` or `{ environment, variantId, previousVariantId }`. */
  readonly details: { readonly [key: string]: AuditValue };
  readonly createdAt: Date;
}

/**
 * What a use case hands to a write port that records its change: the row's id and who acts.
 * The repository adds the kind, the ids, the before/after it reads inside the transaction, and
 * the time of the change.
 */
export interface AuditNote {
  readonly eventId: string;
  readonly actorId: string;
  /** The actor's credential, when there is one (use-cases/access/audit-note.ts). */
  readonly via?: CredentialVia;
}
