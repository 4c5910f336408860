import {
  listAuditEvents,
  type AuditEventsView,
} from '@cp/domain';
import { Router, type Request } from 'express';
import { auditPage } from '../pages/audit-page.js';
import type { PagerLinks } from '../pages/pager.js';
import { page, query, sendPage, type RouteContext, organizationOf } from './context.js';

/** Not a setting: a page of 50 changes, smaller only in tests. */
const AUDIT_PAGE_SIZE = 50;

interface AuditFilters {
  readonly component: string;
  readonly person: string;
  readonly kinds: string[];
}

/** `kind` may repeat (one kind from the form; several by hand); anything but strings is ignored. */
const kindsOf = (req: Request): string[] => {
  const value = req.query.kind;
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === 'string' && v !== '');
};

function href(
  organizationId: string,
  filters: AuditFilters,
  cursor?: { before?: string; after?: string },
): string {
  const params = new URLSearchParams();
  if (filters.component !== '') params.set('component', filters.component);
  if (filters.person !== '') params.set('person', filters.person);
  for (const kind of filters.kinds) params.append('kind', kind);
  if (cursor?.before !== undefined) params.set('before', cursor.before);
  if (cursor?.after !== undefined) params.set('after', cursor.after);
  const search = params.toString();
  return `/orgs/${organizationId}/audit${search === '' ? '' : `?${search}`}`;
}

/** The pager keeps the filters. */
function pagerLinks(
  organizationId: string,
  filters: AuditFilters,
  view: AuditEventsView,
): PagerLinks {
  const latest = href(organizationId, filters);
  return {
    latest: view.isLatest ? null : latest,
    newer:
      view.newer === null
        ? null
        : view.newer === 'latest'
          ? latest
          : href(organizationId, filters, { after: view.newer }),
    older: view.older === null ? null : href(organizationId, filters, { before: view.older }),
  };
}

/** The audit trail page: read-only, owners and admins (the domain decides: listAuditEvents). */
export function auditRoutes(ctx: RouteContext): Router {
  const router = Router();
  router.get(
    '/orgs/:orgId/audit',
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      const filters: AuditFilters = {
        component: query(req, 'component'),
        person: query(req, 'person'),
        kinds: kindsOf(req),
      };
      const before = query(req, 'before') || undefined;
      const after = query(req, 'after') || undefined;
      const view = await listAuditEvents(
        {
          actor: visitor.actor,
          organizationId: organization.id,
          limit: ctx.config.auditPageSize ?? AUDIT_PAGE_SIZE,
          before,
          after,
          componentId: filters.component || undefined,
          actorId: filters.person || undefined,
          kinds: filters.kinds,
        },
        ctx.domain,
      );
      // "Newer" reached the newest changes: the page without a cursor, so its URL stays put.
      if (after !== undefined && view.isLatest)
        return res.redirect(303, href(organization.id, filters));
      sendPage(
        res,
        200,
        auditPage({
          organization,
          view,
          chrome: visitor.chrome(organization.id),
          links: pagerLinks(organization.id, filters, view),
        }),
      );
    }),
  );
  return router;
}
