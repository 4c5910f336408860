import {
  can,
  createInvitation,
  listInvitations,
  Permission,
  revokeInvitation,
  type MemberOrganization,
} from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import type { InvitationMailer } from '../mail/invitation-mail.js';
import {
  invitationsPage,
  type InvitationsPageContent,
  type MailOutcome,
} from '../pages/invitations-page.js';
import type { RouteContext, Visitor } from './context.js';

/** The link a person opens to accept: the dashboard's public origin, whatever host the request came by. */
export const invitationLink = (publicUrl: string, token: string): string =>
  `${publicUrl}/invitations/${token}`;

async function invitationsView(
  ctx: RouteContext,
  visitor: Visitor,
  organization: MemberOrganization,
  extra: Pick<InvitationsPageContent, 'notice' | 'created'>,
): Promise<string> {
  const canInvite = can(organization.role, Permission.ManageMembers);
  const invitations = canInvite
    ? await listInvitations({ actor: visitor.actor, organizationId: organization.id }, ctx.domain)
    : [];
  const now = ctx.domain.clock.now();
  return invitationsPage({ organization, canInvite, invitations, chrome: visitor.chrome(organization.id), now, ...extra });
}

/** Inviting mails through `mailer` when SMTP is set. */
const invitationActions = (mailer: InvitationMailer | null) => [
  // Answered with the page itself, not a redirect: the link must not travel in a URL.
  defineAction({
    path: '/orgs/:orgId/invitations',
    input: z.object({ email: text, role: text }),
    run: async ({ actor, organization, visitor, input }, ctx) => {
      const ttlSeconds = ctx.config.invitationTtlSeconds;
      const { invitation, token } = await createInvitation({ actor, organizationId: organization.id, ...input, ttlSeconds }, ctx.domain);
      const link = invitationLink(ctx.config.publicUrl, token);
      // After the commit: a failed email never loses the invitation (the page shows the link either way).
      let mail: MailOutcome = 'off';
      if (mailer !== null) {
        const sent = await mailer.send({
          invitationId: invitation.id,
          to: invitation.email,
          organizationName: organization.name,
          role: invitation.role,
          invitedBy: visitor.user.displayName ?? visitor.user.email,
          link,
          expiresAt: invitation.expiresAt,
        });
        mail = sent ? 'sent' : 'failed';
      }
      return { email: invitation.email, role: invitation.role, link, mail };
    },
    done: async (created, { visitor, organization }, ctx) => ({
      status: 200,
      page: await invitationsView(ctx, visitor, organization, { notice: null, created }),
    }),
  }),
  defineAction({
    path: '/orgs/:orgId/invitations/:invitationId/revoke',
    run: ({ actor, organization, params }, ctx) =>
      revokeInvitation({ actor, organizationId: organization.id, invitationId: params.invitationId }, ctx.domain),
    done: (_, { organization }) => ({ to: `/orgs/${organization.id}/invitations`, notice: 'invitation-revoked' }),
  }),
];

const invitationPages = [
  definePage({
    path: '/orgs/:orgId/invitations',
    view: ({ visitor, organization, notice }, ctx) => invitationsView(ctx, visitor, organization, { notice }),
  }),
];

/** An organization's invitations: list, invite (the link shown once, emailed when SMTP is set), revoke. */
export function invitationRoutes(ctx: RouteContext, mailer: InvitationMailer | null): Router {
  return mountActions(mountPages(Router(), ctx, invitationPages), ctx, invitationActions(mailer));
}
