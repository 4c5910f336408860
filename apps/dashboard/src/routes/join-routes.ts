import {
  acceptInvitation,
  acceptRefusal,
  emailKey,
  findInvitation,
  findSignedInUser,
  httpStatusOf,
  isDomainError,
  type InvitationState,
} from '@cp/domain';
import { Router, type Request, type Response } from 'express';
import { defineAction } from '../kit/define-action.js';
import { actionHandler } from '../kit/mount-actions.js';
import { messagePage } from '../pages/layout.js';
import { joinPage, wrongAccountPage } from '../pages/join-page.js';
import { beginSignIn } from './auth-routes.js';
import { formBody, sendPage, type RouteContext } from './context.js';

/** Never the raw path in a log: it holds the token. */
const ROUTE = '/invitations/:token';

const GONE: {
  readonly [S in Exclude<InvitationState, 'pending'>]: {
    status: number;
    title: string;
    message: (org: string) => string;
  };
} = {
  expired: {
    status: 410,
    title: 'This invitation expired',
    message: (org) => `Ask an owner or admin of ${org} for a new invitation.`,
  },
  revoked: {
    status: 410,
    title: 'This invitation was revoked',
    message: (org) =>
      `It was withdrawn or replaced by a newer one. Ask an owner or admin of ${org} for a new invitation.`,
  },
  accepted: {
    status: 409,
    title: 'This invitation was already used',
    message: (org) =>
      `An invitation link works once. If it was you, open ${org} from your organizations; otherwise ask an owner or admin of ${org} for a new invitation.`,
  },
};

/** Accepting opens the organization's components. */
const acceptAction = defineAction({
  path: ROUTE,
  run: ({ actor, params }, ctx) => acceptInvitation({ actor, token: params.token }, ctx.domain),
  done: ({ organization }) => ({ to: `/orgs/${organization.id}/components` }),
});

/**
 * The one route not scoped to an organization: the token in the path is the capability. GET shows
 * what it offers (signed out: straight to the sign-in, its email pre-filled, back here afterwards);
 * POST (CSRF) accepts it and opens the organization's components.
 */
export function joinRoutes(ctx: RouteContext): Router {
  const router = Router();
  // Unexpected failures are logged by route pattern here, not by the app's handler (which logs the path).
  const failed = (req: Request, res: Response, error: unknown): void => {
    ctx.log.error({ err: error, method: req.method, route: ROUTE }, 'request failed');
    if (res.headersSent) return void res.end();
    sendPage(
      res,
      500,
      messagePage({
        title: 'Something went wrong',
        message: 'The dashboard could not finish this request. Try again in a moment.',
        chrome: null,
        alert: true,
      }),
    );
  };
  const guarded =
    (handler: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response) => {
      await handler(req, res).catch((error: unknown) => failed(req, res, error));
    };

  router.get(
    ROUTE,
    guarded(async (req, res) => {
      const token = String(req.params.token);
      const session = ctx.session.read(req);
      const signedIn =
        session === null
          ? null
          : await findSignedInUser({ actor: { userId: session.userId } }, ctx.domain);
      const chrome = signedIn && {
        csrf: ctx.csrf.token(req, res),
        email: signedIn.user.email,
        organizations: signedIn.organizations,
        organizationId: null,
      };
      let view;
      try {
        view = await findInvitation({ token }, ctx.domain);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        return sendPage(
          res,
          httpStatusOf(error.code),
          messagePage({
            title: 'This invitation link is not valid',
            message: error.message,
            chrome,
            alert: true,
          }),
        );
      }
      const { invitation, organization, state } = view;
      if (state !== 'pending') {
        const gone = GONE[state];
        return sendPage(
          res,
          gone.status,
          messagePage({
            title: gone.title,
            message: gone.message(organization.name),
            chrome,
            alert: true,
          }),
        );
      }
      if (signedIn === null || chrome === null)
        return beginSignIn(ctx, res, {
          returnTo: `/invitations/${token}`,
          loginHint: invitation.email,
          invitation: token,
        });
      if (
        acceptRefusal(invitation, emailKey(signedIn.user.email), ctx.domain.clock.now()) ===
        'wrong-account'
      ) {
        return sendPage(res, 403, wrongAccountPage({ invitedEmail: invitation.email, chrome }));
      }
      const membership = signedIn.organizations.find((o) => o.id === organization.id);
      if (membership !== undefined) {
        return sendPage(
          res,
          409,
          messagePage({
            title: 'Already a member',
            message: `You are already a member of ${organization.name} (as ${membership.role}): nothing to accept.`,
            chrome,
            link: {
              href: `/orgs/${organization.id}/components`,
              label: `Open ${organization.name}`,
            },
          }),
        );
      }
      sendPage(res, 200, joinPage({ token, invitation, organization, chrome }));
    }),
  );

  // The kit's handler brings the session and the CSRF check; its domain-error pages carry the use case's message (never
  // the token). Not mounted with mountActions: an unexpected failure goes to `failed`, logged by pattern, not by path.
  const accept = actionHandler(ctx, acceptAction);
  router.post(ROUTE, formBody, (req, res, next) =>
    accept(req, res, (error?: unknown) => (error === undefined ? next() : failed(req, res, error))),
  );

  return router;
}
