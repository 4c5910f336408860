import { AuditKind, GUARD_ACTOR_ID, percentOf, type AuditEntry, type AuditValue } from '@cp/domain';

/** Each kind as a person reads it. */
export const AUDIT_KIND_LABELS: { readonly [K in AuditKind]: string } = {
  [AuditKind.OrganizationCreated]: 'Organization created',
  [AuditKind.OrganizationRenamed]: 'Organization renamed',
  [AuditKind.PrivatePreviewsChanged]: 'Preview privacy changed',
  [AuditKind.StaticExportChanged]: 'Static export turned on or off',
  [AuditKind.UploadConfirmed]: 'Upload confirmed',
  [AuditKind.TagsChanged]: 'Tags changed',
  [AuditKind.ReleasePublished]: 'Released',
  [AuditKind.ReleaseRequested]: 'Release requested',
  [AuditKind.ReleaseApproved]: 'Release request approved',
  [AuditKind.ReleaseDeclined]: 'Release request declined',
  [AuditKind.ExperiencePublished]: 'Experience published',
  [AuditKind.RolloutStarted]: 'Rollout started',
  [AuditKind.RolloutAdvanced]: 'Rollout advanced',
  [AuditKind.RolloutPaused]: 'Rollout paused',
  [AuditKind.RolloutResumed]: 'Rollout resumed',
  [AuditKind.RolloutPromoted]: 'Rollout promoted',
  [AuditKind.RolloutStopped]: 'Rollout stopped',
  [AuditKind.RolloutRolledBack]: 'Rollout rolled back by the guard',
  [AuditKind.AppSaved]: 'Offered in AI assistants',
  [AuditKind.AppRemoved]: 'No longer offered in AI assistants',
  [AuditKind.EnvironmentCreated]: 'Environment added',
  [AuditKind.EnvironmentRenamed]: 'Environment renamed',
  [AuditKind.EnvironmentRemoved]: 'Environment removed',
  [AuditKind.EnvironmentProtectionChanged]: 'Environment protection changed',
  [AuditKind.FlowCreated]: 'Flow created',
  [AuditKind.FlowChanged]: 'Flow changed',
  [AuditKind.InvitationCreated]: 'Invitation sent',
  [AuditKind.InvitationRevoked]: 'Invitation revoked',
  [AuditKind.InvitationAccepted]: 'Invitation accepted',
  [AuditKind.MemberRoleChanged]: 'Role changed',
  [AuditKind.MemberRemoved]: 'Member removed',
  [AuditKind.MemberLeft]: 'Member left',
  [AuditKind.OwnershipTransferred]: 'Ownership transferred',
  [AuditKind.PreviewKeyCreated]: 'Preview key created',
  [AuditKind.PreviewKeyRevoked]: 'Preview key revoked',
  [AuditKind.WebhookEndpointCreated]: 'Webhook endpoint added',
  [AuditKind.WebhookEndpointChanged]: 'Webhook endpoint changed',
  [AuditKind.WebhookEndpointDeleted]: 'Webhook endpoint deleted',
  [AuditKind.ApplicationRevoked]: 'Connected application revoked',
  [AuditKind.ApiTokenCreated]: 'API token created',
  [AuditKind.ApiTokenRevoked]: 'API token revoked',
  [AuditKind.CiPolicyCreated]: 'CI trust policy created',
  [AuditKind.CiPolicyDeleted]: 'CI trust policy deleted',
};

/** Who made the change: their email; the rollout guard acts as no user. */
export const actorName = (entry: AuditEntry): string =>
  entry.event.actorId === GUARD_ACTOR_ID ? 'the rollout guard' : (entry.actorEmail ?? 'a former user');

/** A kind this version does not know (a newer writer) still gets a label: its own text. */
export const kindLabel = (kind: string): string =>
  (AUDIT_KIND_LABELS as Record<string, string>)[kind] ?? kind;

type Details = { readonly [key: string]: AuditValue };

/** One value as text: lists joined, nothing as "none"; anything else (objects) left out. */
function text(value: AuditValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) {
    const items = value
      .map((item) => text(item as AuditValue))
      .filter((item): item is string => item !== null);
    return items.length === 0 ? 'none' : items.join(', ');
  }
  return null;
}

/** The first of `keys` the details hold as text. */
const first = (details: Details, ...keys: string[]): string | null => {
  for (const key of keys) {
    const value = text(details[key]);
    if (value !== null) return value;
  }
  return null;
};

/** "before → after" when the details hold either; protection flags read as protected / open. */
function change(details: Details, flag?: { on: string; off: string }): string | null {
  if (!('before' in details) && !('after' in details)) return null;
  const side = (value: AuditValue | undefined) =>
    flag !== undefined && typeof value === 'boolean'
      ? value
        ? flag.on
        : flag.off
      : (text(value) ?? 'none');
  return `${side(details.before)} → ${side(details.after)}`;
}

const joined = (...parts: (string | null)[]): string =>
  parts.filter((part) => part !== null && part !== '').join(' · ');

/** A variant as the details name it (`variantSequence`, else `variantId`; `previous…` for the replaced one). */
const variant = (details: Details, prefix?: 'previous'): string | null => {
  const key = (name: string) =>
    prefix === undefined ? name : `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}`;
  const sequence = first(details, key('variantSequence'), key('sequence'));
  if (sequence !== null) return `variant ${sequence}`;
  const id = first(details, key('variantId'));
  return id === null ? null : `variant ${id.slice(0, 8)}`;
};

/**
 * A short line of what changed, from the event's details. Reads every field defensively: the
 * writers own the details' shape, and a missing or odd field leaves a shorter line, never an error.
 */
export function auditSummary(entry: AuditEntry): string {
  const { event, subjectEmail } = entry;
  const details: Details =
    typeof event.details === 'object' && event.details !== null ? event.details : {};
  const environment = first(details, 'environment', 'environmentName');
  const to = environment === null ? null : `to ${environment}`;
  const reason = first(details, 'reason');
  switch (event.kind) {
    case AuditKind.ReleasePublished: {
      const replaced = variant(details, 'previous');
      return joined(
        details.rollback === true ? 'Rolled back' : 'Published',
        variant(details),
        to,
        replaced === null ? null : `replacing ${replaced}`,
      );
    }
    case AuditKind.ReleaseRequested:
    case AuditKind.ReleaseApproved:
      return joined(variant(details), to);
    case AuditKind.ReleaseDeclined:
      return joined(variant(details), to, reason === null ? null : `reason: ${reason}`);
    case AuditKind.ExperiencePublished: {
      const revision = first(details, 'revision');
      const from = first(details, 'republishedFrom');
      return joined(
        revision === null ? null : `revision ${revision}`,
        environment === null ? null : `in ${environment}`,
        from === null ? null : `re-published from revision ${from}`,
        details.saltKept === true ? 'users kept their buckets' : 'a new phase',
      );
    }
    case AuditKind.RolloutStarted:
    case AuditKind.RolloutAdvanced:
    case AuditKind.RolloutPaused:
    case AuditKind.RolloutResumed:
    case AuditKind.RolloutPromoted:
    case AuditKind.RolloutStopped:
    case AuditKind.RolloutRolledBack: {
      const candidate = details.candidate as Details | undefined;
      const sequence = candidate ? first(candidate, 'sequence') : null;
      const stage = typeof details.stageIndex === 'number' ? `stage ${details.stageIndex + 1}` : null;
      const weight = typeof details.weight === 'number' ? percentOf(details.weight) : null;
      return joined(
        sequence === null ? null : `variant ${sequence}`,
        environment === null ? null : `in ${environment}`,
        event.kind === AuditKind.RolloutAdvanced || event.kind === AuditKind.RolloutStarted ? joined(stage, weight) : null,
        details.by === 'guard' ? 'by the guard' : null,
        reason,
      );
    }
    case AuditKind.AppSaved: {
      const tools = typeof details.actionTools === 'number' && details.actionTools > 0 ? details.actionTools : null;
      return joined(
        details.created === true ? 'now an app' : details.created === false ? 'settings changed' : null,
        first(details, 'title'),
        environment === null ? null : `shows ${environment}`,
        details.inputSchema === true ? 'with an input schema' : null,
        tools === null ? null : `${tools} ${tools === 1 ? 'action calls a tool' : 'actions call tools'}`,
      );
    }
    case AuditKind.AppRemoved:
      return joined(first(details, 'title'), environment === null ? null : `showed ${environment}`);
    case AuditKind.UploadConfirmed:
      return joined(variant(details), details.created === true ? 'new component' : null);
    case AuditKind.InvitationCreated:
    case AuditKind.InvitationRevoked:
    case AuditKind.InvitationAccepted: {
      const role = first(details, 'role');
      const who = first(details, 'email') ?? subjectEmail ?? '';
      return role === null ? who : `${who} as ${role}`.trim();
    }
    case AuditKind.MemberRoleChanged:
    case AuditKind.OwnershipTransferred:
      return joined(subjectEmail ?? first(details, 'email'), change(details));
    case AuditKind.MemberRemoved:
    case AuditKind.MemberLeft:
      return joined(subjectEmail ?? first(details, 'email'), first(details, 'role'));
    case AuditKind.EnvironmentProtectionChanged:
      return joined(environment, change(details, { on: 'protected', off: 'open' }));
    case AuditKind.PrivatePreviewsChanged:
      return change(details, { on: 'private', off: 'public' }) ?? '';
    case AuditKind.StaticExportChanged:
      return change(details, { on: 'on', off: 'off' }) ?? '';
    case AuditKind.WebhookEndpointCreated:
    case AuditKind.WebhookEndpointDeleted:
      return joined(first(details, 'url'), first(details, 'eventTypes'));
    case AuditKind.WebhookEndpointChanged:
      return joined(
        first(details, 'url'),
        'eventTypesAfter' in details ? `events ${text(details.eventTypesBefore) ?? 'none'} → ${text(details.eventTypesAfter) ?? 'none'}` : null,
        details.enabled === true ? 'enabled' : details.enabled === false ? 'disabled' : null,
        details.secretRotated === true ? 'secret rotated' : null,
      );
    case AuditKind.ApplicationRevoked:
      return joined(first(details, 'clientName', 'application', 'name'));
    case AuditKind.ApiTokenCreated:
    case AuditKind.ApiTokenRevoked:
      return joined(first(details, 'name', 'tokenName'), first(details, 'prefix'));
    case AuditKind.CiPolicyCreated:
    case AuditKind.CiPolicyDeleted:
      return joined(first(details, 'name', 'policyName'), first(details, 'provider'), first(details, 'repositoryName', 'repository'));
    default:
      // Tags, renames, environments, flows, preview keys, organizations: the name and what changed.
      return joined(first(details, 'name', 'environment', 'flow', 'flowName'), change(details));
  }
}
