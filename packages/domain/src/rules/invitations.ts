import { createHash, randomBytes } from 'node:crypto';
import type { AuditEvent, AuditKind, AuditNote } from '../entities/audit-event.js';
import { invitationState, type Invitation, type InvitableRole } from '../entities/invitation.js';
import { Role } from '../entities/organization.js';
import { invalidInput } from '../errors/factories.js';

/** Tokens read `cpi_` + 43 base64url characters (256 random bits), so they are recognisable in a leak scan. */
const TOKEN = /^cpi_[A-Za-z0-9_-]{43}$/;

// Deliberately loose, as at sign-up: the address is proven by the person who signs in with it.
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const EMAIL_MAX_LENGTH = 254;

/** An invitation lives this long unless the dashboard's INVITATION_TTL_HOURS says otherwise. */
export const DEFAULT_INVITATION_TTL_SECONDS = 7 * 24 * 3600;

export const newInvitationToken = (): string => `cpi_${randomBytes(32).toString('base64url')}`;

/** A fast hash suffices: the token has full entropy, so there is nothing to guess from the hash. */
export const hashInvitationToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** Whether a presented value can be an invitation token at all (spares a lookup for junk). */
export const isInvitationToken = (value: string): boolean => TOKEN.test(value);

/** The case-insensitive key an invitation's email is matched by (the same as an account's). */
export const emailKey = (email: string): string => email.trim().toLowerCase();

export function normalizeInvitationEmail(raw: string): string {
  const email = raw.trim();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL.test(email)) {
    throw invalidInput(
      'email',
      'enter the email address of the person to invite, such as name@example.com.',
    );
  }
  return email;
}

const INVITABLE: readonly string[] = [Role.Admin, Role.Member, Role.Viewer];

export function parseInvitableRole(raw: string): InvitableRole {
  if (raw === Role.Owner) {
    throw invalidInput(
      'role',
      'ownership is not given by invitation: invite the person as admin, then transfer ownership on the Members page.',
    );
  }
  if (!INVITABLE.includes(raw)) throw invalidInput('role', 'choose admin, member or viewer.');
  return raw as InvitableRole;
}

/**
 * Why `invitation` cannot be accepted by an account with `accountEmailKey` at `now`, or null when
 * it can (membership aside). The order is what the person reads first: a used, revoked or
 * expired link is that, whoever opens it.
 */
export function acceptRefusal(
  invitation: Invitation,
  accountEmailKey: string,
  now: Date,
): 'used' | 'revoked' | 'expired' | 'wrong-account' | null {
  const state = invitationState(invitation, now);
  if (state === 'accepted') return 'used';
  if (state !== 'pending') return state;
  return emailKey(invitation.email) === accountEmailKey ? null : 'wrong-account';
}

/** The audit row of an invitation's change (created, revoked, accepted): one shape for the database and the fakes. */
export const invitationAuditEvent = (
  invitation: Invitation,
  audit: AuditNote,
  kind: AuditKind,
  at: Date,
  more: { subjectUserId?: string; details?: Record<string, string | string[]> } = {},
): AuditEvent => ({
  id: audit.eventId,
  organizationId: invitation.organizationId,
  actorId: audit.actorId,
  via: audit.via ?? null,
  kind,
  componentId: null,
  subjectUserId: more.subjectUserId ?? null,
  details: {
    invitationId: invitation.id,
    email: invitation.email,
    role: invitation.role,
    ...more.details,
  },
  createdAt: at,
});
