import { findSignedInUser, httpStatusOf, isDomainError, isUnavailable, notFound, type Actor, type ErrorCode, type ApplicationGrants, type DomainDeps, type MemberOrganization, type RolloutFigures, type UsageReader, type User, type WebhookUrlPolicy } from '@cp/domain';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { PendingLogin, SignIn } from '../auth/sign-in.js';
import type { DashboardConfig } from '../config.js';
import type { Logger } from '@cp/http-runtime';
import { type Chrome, messagePage, PAGE_SECURITY_HEADERS } from '../pages/layout.js';
import { sendHtmlPage, type Csrf } from '@cp/web-forms';
import type { SignedCookie } from '../security/signed-cookie.js';

/** What the routes share. */
export interface RouteContext {
  readonly config: DashboardConfig;
  readonly domain: DomainDeps;
  readonly grants: ApplicationGrants;
  /** The usage analytics' rollups, read by the usage pages. */
  readonly usage: UsageReader;
  /** Sessions per variant from usage analytics, what the rollout guard judges: the rollout page shows them. */
  readonly rolloutFigures: RolloutFigures;
  readonly signIn: SignIn;
  readonly csrf: Csrf;
  readonly session: SignedCookie<{ userId: string }>;
  readonly login: SignedCookie<PendingLogin>;
  readonly log: Logger;
  /** Where webhook events may be sent (https, public addresses; loopback in development). */
  readonly webhookUrls: WebhookUrlPolicy;
}

/** The signed-in person, for one request. */
export interface Visitor {
  readonly user: User;
  readonly actor: Actor;
  readonly organizations: readonly MemberOrganization[];
  chrome(organizationId: string | null): Chrome;
}

export function sendPage(res: Response, status: number, page: string): void {
  sendHtmlPage(res, { status, body: page, headers: PAGE_SECURITY_HEADERS });
}

export const formBody: RequestHandler = express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 50 });

export const query = (req: Request, name: string): string => {
  const value = req.query[name];
  return typeof value === 'string' ? value : '';
};

/** Only a path of this site: never another origin (`//evil`, `/\\evil`, `https:`). */
export const safeReturnTo = (value: string): string => (/^\/(?![/\\])[^\s]*$/.test(value) ? value : '/');

/** How each domain error is titled on a page; its status is the domain's (HTTP_STATUS). */
const TITLE: { readonly [Code in ErrorCode]: string } = {
  NOT_FOUND: 'Not found',
  INVALID_INPUT: 'That did not work',
  NAME_TAKEN: 'That name is taken',
  TOO_MANY_TAGS: 'Too many tags',
  ENVIRONMENT_IN_USE: 'This environment is in use',
  ENVIRONMENT_PROTECTED: 'This environment is protected',
  FORBIDDEN: 'Not allowed',
  LIMIT_REACHED: 'Limit reached',
  LAST_OWNER: 'The organization needs an owner',
  CONFLICT: 'Something changed meanwhile',
  AMBIGUOUS_ORGANIZATION: 'That did not work',
  UPLOAD_NOT_RECEIVED: 'That did not work',
  UPLOAD_TOO_LARGE: 'That did not work',
  UPLOAD_NOT_HTML: 'That did not work',
  UPLOAD_EXPIRED: 'That did not work',
  INVITATION_EXPIRED: 'This invitation expired',
  INVITATION_REVOKED: 'This invitation was revoked',
  INVITATION_USED: 'This invitation was already used',
  ALREADY_MEMBER: 'Already a member',
  RELEASE_REQUEST_DECIDED: 'Already decided',
  DATABASE_UNAVAILABLE: 'Temporarily unavailable',
  STORE_UNAVAILABLE: 'Temporarily unavailable',
};

type Handler = (req: Request, res: Response, visitor: Visitor) => Promise<void>;

/**
 * A page or action for signed-in people. Without a session: a GET goes to the
 * sign-in and comes back to the same URL afterwards; a POST is sent to sign in.
 * POSTs must carry the CSRF token. Domain errors become pages (NOT_FOUND: 404,
 * the same for unknown ids and for other organizations' ids).
 */
export function page(ctx: RouteContext, handler: Handler): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    let visitor: Visitor | null = null;
    try {
      const session = ctx.session.read(req);
      const signedIn = session === null ? null : await findSignedInUser({ actor: { userId: session.userId } }, ctx.domain);
      if (signedIn === null) {
        if (req.method === 'GET') return res.redirect(303, `/login?returnTo=${encodeURIComponent(safeReturnTo(req.originalUrl))}`);
        return res.redirect(303, '/login');
      }
      if (req.method === 'POST' && !ctx.csrf.verify(req)) {
        return sendPage(res, 403, messagePage({ title: 'This form expired', message: 'The form was not sent from this site, or it is too old. Go back, reload the page and try again.', chrome: null, alert: true }));
      }
      const { user, organizations } = signedIn;
      const csrf = ctx.csrf.token(req, res);
      visitor = {
        user,
        actor: { userId: user.id },
        organizations,
        chrome: (organizationId) => ({ csrf, email: user.email, organizations, organizationId, path: req.path }),
      };
      await handler(req, res, visitor);
    } catch (error) {
      // The app's error handler answers it (503 with Retry-After), as for the routes outside `page`.
      if (!isDomainError(error) || isUnavailable(error)) return next(error);
      const back = req.get('referer');
      const sameSite = back !== undefined && back.startsWith(`${ctx.config.publicUrl}/`);
      sendPage(
        res,
        httpStatusOf(error.code),
        messagePage({
          title: TITLE[error.code],
          message: error.code === 'NOT_FOUND' ? 'There is nothing here, or it is not in one of your organizations.' : error.message,
          chrome: visitor?.chrome(null) ?? null,
          alert: error.code !== 'NOT_FOUND',
          link: sameSite && error.code !== 'NOT_FOUND' ? { href: back, label: 'Go back' } : { href: '/', label: 'Your components' },
        }),
      );
    }
  };
}

/** Success messages after a redirect, by key, so a URL cannot put arbitrary text on a page. */
export const NOTICES = {
  tags: 'Tags saved.',
  published: 'Published. Hosts get it from /consume within about a minute (cache).',
  requested: 'Release request sent; waiting for an owner or admin to approve it.',
  'request-approved': 'Request approved: the release is done. Hosts get it from /consume within about a minute (cache).',
  'request-declined': 'Request declined.',
  'request-approved-experience': 'Request approved: the experience is published. Hosts get it within about a minute (cache).',
  'request-approved-rollout': 'Request approved: the rollout started at its first stage.',
  'experience-saved': 'Draft saved. Nothing changes for users until you publish it.',
  'experience-published': 'Experience published. Hosts get it within about a minute (cache).',
  'experience-requested': 'Release request sent: the experience is published when an owner or admin approves it.',
  'rollout-started': 'Rollout started at its first stage. The guard judges it every minute.',
  'rollout-requested': 'Release request sent: the rollout starts when an owner or admin approves it.',
  'rollout-advanced': 'Rollout advanced to its next stage.',
  'rollout-paused': 'Rollout paused: it holds its weight and does not advance; the guard still judges it.',
  'rollout-resumed': 'Rollout resumed.',
  'rollout-promoted': 'Candidate released: the rollout is over. Hosts get it within about a minute (cache).',
  'rollout-promote-requested': 'Release request sent: the candidate is released when an owner or admin approves it.',
  'rollout-stopped': 'Rollout stopped: everyone gets the release again.',
  'app-saved': "Saved. Members' AI assistants list the app from their next tool list.",
  'app-removed': "No longer offered: the tool leaves members' AI assistants at their next tool list.",
  'env-added': 'Environment added.',
  'env-renamed': 'Environment renamed. Hosts asking for the old name now get 404.',
  'env-removed': 'Environment removed.',
  'env-protected': 'Environment protected: only owners and admins publish to it now.',
  'env-opened': 'Environment opened: every member can publish to it now.',
  'flow-saved': 'Flow saved.',
  'flow-published': 'Flow published: /flow serves it.',
  'flow-unpublished': 'Flow is a draft again: /flow answers 404 for it.',
  revoked: 'Access revoked. The application is signed out within 30 seconds.',
  'export-on': 'Static export is on: everything released is being written to the export bucket. Reload to see when it is done.',
  'export-again': 'Everything released is being written to the export bucket again. Reload to see when it is done.',
  'export-off': 'Static export is off: its objects are being removed from the export bucket.',
  'previews-private': 'Previews are private now: hosts need a preview key to read them.',
  'previews-public': 'Previews are public now: anyone who knows a component id can read its latest upload.',
  'invitation-revoked': 'Invitation revoked: its link no longer works.',
  'webhook-saved': 'Webhook endpoint saved.',
  'webhook-enabled': 'Webhook endpoint enabled: new events are delivered to it again. Redeliver the ones it missed from its page.',
  'webhook-deleted': 'Webhook endpoint deleted: nothing more is sent to it.',
  'webhook-redelivered': 'Redelivery queued: the message is sent again, with the same webhook-id.',
  'api-token-revoked': 'API token revoked: it is refused from its next exchange, and its access tokens stop within 30 seconds.',
  'ci-policy-created': 'CI trust policy created: matching jobs can publish with cpc now.',
  'ci-policy-deleted': 'CI trust policy deleted: its jobs are refused from their next exchange, and its access tokens stop within 30 seconds.',
  'preview-key-revoked': 'Preview key revoked. Hosts using it get 404 for previews from their next request.',
  'role-changed': 'Role changed.',
  'member-removed': 'Member removed.',
  'ownership-transferred': 'Ownership transferred: you are an admin of this organization now.',
  left: 'You left the organization.',
  'org-renamed': 'Organization renamed.',
  'org-deleted': 'Organization deleted.',
} as const satisfies Readonly<Record<string, string>>;

/** A notice an action may name after its redirect. */
export type NoticeKey = keyof typeof NOTICES;

export const notice = (req: Request): string | null => (NOTICES as Readonly<Record<string, string>>)[query(req, 'notice')] ?? null;

/** The organization of the route's `:orgId` as the visitor belongs to it; others are "not found" like every page. */
export function organizationOf(req: Pick<Request, 'params'>, visitor: Visitor): MemberOrganization {
  const organizationId = String(req.params.orgId);
  const organization = visitor.organizations.find((o) => o.id === organizationId);
  if (organization === undefined) throw notFound('Organization', organizationId);
  return organization;
}
