import { AuditKind, type AuditEvent, type AuditNote } from '../entities/audit-event.js';
import { Role, type Membership } from '../entities/organization.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { invalidInput, notFound } from '../errors/factories.js';
import type { MembershipChange, MembershipChangeResult } from '../ports/members.js';
import { forbiddenFor } from '../use-cases/access/require-permission.js';
import { canAssignRole, can, Permission } from './roles.js';

/** The memberships a change is about, as the repository read them under lock. */
export interface LockedMemberships {
  readonly organizationId: string;
  /** The actor's membership now (null: not a member, so the organization is "not found"). */
  readonly actor: Membership | null;
  /** The member the change is about (the actor for `leave`). */
  readonly subject: Membership | null;
  /** How many owners the organization has now. */
  readonly owners: number;
}

/**
 * Whether `change` may happen to the memberships as they are now; throws the refusal,
 * otherwise returns what it does to the subject. The one copy of these rules: the repositories
 * (PostgreSQL and in-memory) call it with the rows they locked, so a change checked against a
 * stale read (a concurrent demotion, a concurrent role change) cannot slip through.
 *
 * 1. Only members act; another organization is NOT_FOUND, as everywhere.
 * 2. Owners and admins manage roles below owner; only owners touch owners (canAssignRole).
 * 3. Nobody changes their own role or removes themselves: they transfer ownership or leave.
 * 4. A role change names the role the actor saw: a different one now is a CONFLICT.
 * 5. The last owner never leaves, is removed or is demoted (LAST_OWNER).
 */
export function checkMembershipChange(
  change: MembershipChange,
  locked: LockedMemberships,
): MembershipChangeResult {
  const { actor } = locked;
  if (actor === null) throw notFound('Organization', locked.organizationId);
  if (change.kind === 'leave') {
    refuseLastOwner(actor, null, locked.owners, 'You are');
    return { userId: actor.userId, before: actor.role, after: null };
  }
  const subject = locked.subject;
  if (subject === null) throw notFound('Member', change.userId);
  const self = subject.userId === actor.userId;
  switch (change.kind) {
    case 'role': {
      if (self) {
        throw new DomainError(
          ErrorCode.Forbidden,
          'Nobody changes their own role. To hand over ownership, transfer it to another member; otherwise ask an owner, or leave the organization.',
          { role: actor.role },
        );
      }
      const touchesOwners = subject.role === Role.Owner || change.to === Role.Owner;
      if (!canAssignRole(actor.role, subject.role) || !canAssignRole(actor.role, change.to)) {
        throw touchesOwners
          ? forbiddenFor(actor, Permission.Own, "make someone an owner or change an owner's role")
          : forbiddenFor(actor, Permission.ManageMembers, "change members' roles");
      }
      if (subject.role !== change.from) {
        throw new DomainError(
          ErrorCode.Conflict,
          `This member's role changed meanwhile: it is ${subject.role} now, not ${change.from}. Reload the members page and decide again.`,
          { role: subject.role },
        );
      }
      refuseLastOwner(subject, change.to, locked.owners, 'This member is');
      return { userId: subject.userId, before: subject.role, after: change.to };
    }
    case 'remove': {
      if (self) throw invalidInput('member', 'to remove yourself, leave the organization.');
      if (!canAssignRole(actor.role, subject.role)) {
        throw subject.role === Role.Owner
          ? forbiddenFor(actor, Permission.Own, 'remove an owner')
          : forbiddenFor(actor, Permission.ManageMembers, 'remove members');
      }
      refuseLastOwner(subject, null, locked.owners, 'This member is');
      return { userId: subject.userId, before: subject.role, after: null };
    }
    case 'transfer': {
      if (!can(actor.role, Permission.Own))
        throw forbiddenFor(actor, Permission.Own, 'transfer ownership');
      if (self) throw invalidInput('member', 'choose another member to transfer ownership to.');
      return { userId: subject.userId, before: subject.role, after: Role.Owner };
    }
  }
}

/** Whether the actor may delete the organization now, having typed `confirmName`. */
export function checkOrganizationDeletion(
  locked: { organizationId: string; name: string; actor: Membership | null },
  confirmName: string,
): void {
  if (locked.actor === null) throw notFound('Organization', locked.organizationId);
  if (!can(locked.actor.role, Permission.Own))
    throw forbiddenFor(locked.actor, Permission.Own, 'delete the organization');
  if (confirmName.trim() !== locked.name) {
    throw invalidInput(
      'name',
      `type the organization's name exactly ("${locked.name}") to delete it.`,
    );
  }
}

function refuseLastOwner(
  subject: Membership,
  after: Role | null,
  owners: number,
  who: string,
): void {
  if (subject.role !== Role.Owner || after === Role.Owner || owners > 1) return;
  throw new DomainError(
    ErrorCode.LastOwner,
    `${who} the last owner of this organization. Make another member an owner first (transfer ownership), or delete the organization.`,
  );
}

const AUDIT_KIND = {
  role: AuditKind.MemberRoleChanged,
  remove: AuditKind.MemberRemoved,
  leave: AuditKind.MemberLeft,
  transfer: AuditKind.OwnershipTransferred,
} as const;

/** The audit row of an accepted change (both repositories write exactly this). */
export function membershipAudit(
  change: MembershipChange,
  result: MembershipChangeResult,
  context: { organizationId: string; audit: AuditNote; now: Date },
): AuditEvent {
  const details: AuditEvent['details'] =
    change.kind === 'transfer'
      ? { before: result.before, after: Role.Owner, previousOwnerAfter: Role.Admin }
      : { before: result.before, after: result.after };
  return {
    id: context.audit.eventId,
    organizationId: context.organizationId,
    actorId: context.audit.actorId,
    via: context.audit.via ?? null,
    kind: AUDIT_KIND[change.kind],
    componentId: null,
    subjectUserId: result.userId,
    details,
    createdAt: context.now,
  };
}
