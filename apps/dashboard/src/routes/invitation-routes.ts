import {
  can,
  createInvitation,
  listInvitations,
  Permission,
  revokeInvitation,
  type MemberOrganization,
} from '@cp/domain';
import { field } from '@cp/web-forms';
import { Router, type Response } from 'express';
import type { InvitationMailer } from '../mail/invitation-mail.js';
import {
  invitationsPage,
  type InvitationsPageContent,
  type MailOutcome,
} from '../pages/invitations-page.js';
import { formBody, notice, page, sendPage, type RouteContext, type Visitor, organizationOf } from './context.js';

/** The link a person opens to accept: the dashboard's public origin, whatever host the request came by. */
export const invitationLink = (publicUrl: string, token: string): string =>
  `${publicUrl}/invitations/${token}`;

/** An organization's invitations: list, invite (the link shown once, emailed when SMTP is set), revoke. */
export function invitationRoutes(ctx: RouteContext, mailer: InvitationMailer | null): Router {
  const router = Router();
  const base = (orgId: string) => `/orgs/${orgId}/invitations`;
  const render = async (
    res: Response,
    visitor: Visitor,
    organization: MemberOrganization,
    extra: Pick<InvitationsPageContent, 'notice' | 'created'>,
  ) => {
    const canInvite = can(organization.role, Permission.ManageMembers);
    const invitations = canInvite
      ? await listInvitations({ actor: visitor.actor, organizationId: organization.id }, ctx.domain)
      : [];
    sendPage(
      res,
      200,
      invitationsPage({
        organization,
        canInvite,
        invitations,
        chrome: visitor.chrome(organization.id),
        now: ctx.domain.clock.now(),
        ...extra,
      }),
    );
  };

  router.get(
    '/orgs/:orgId/invitations',
    page(ctx, async (req, res, visitor) => {
      await render(res, visitor, organizationOf(req, visitor), { notice: notice(req) });
    }),
  );

  // Answered with the page itself, not a redirect: the link must not travel in a URL.
  router.post(
    '/orgs/:orgId/invitations',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      const { invitation, token } = await createInvitation(
        {
          actor: visitor.actor,
          organizationId: organization.id,
          email: field(req, 'email'),
          role: field(req, 'role'),
          ttlSeconds: ctx.config.invitationTtlSeconds,
        },
        ctx.domain,
      );
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
      await render(res, visitor, organization, {
        notice: null,
        created: { email: invitation.email, role: invitation.role, link, mail },
      });
    }),
  );

  router.post(
    '/orgs/:orgId/invitations/:invitationId/revoke',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      await revokeInvitation(
        {
          actor: visitor.actor,
          organizationId: organization.id,
          invitationId: String(req.params.invitationId),
        },
        ctx.domain,
      );
      res.redirect(303, `${base(organization.id)}?notice=invitation-revoked`);
    }),
  );

  return router;
}
