import type { RequestHandler, Router } from 'express';
import { notice, page, query, sendPage, type RouteContext } from '../routes/context.js';
import { paramsOf, scopeOf, type RouteScope } from './route-scope.js';

/** What a page's view is given. */
export interface PageArgs<Path extends string> extends RouteScope<Path> {
  /** The success message a redirect asked for (`?notice=`, a key of NOTICES), if any. */
  readonly notice: string | null;
  /** A query parameter as text: '' when absent or repeated. */
  readonly query: (name: string) => string;
}

/** A declared page: what `mountPages` serves. */
export interface DashboardPage {
  readonly path: string;
  readonly handler: (ctx: RouteContext) => RequestHandler;
}

/**
 * One dashboard page for signed-in people: its path and the view that renders it (200). The
 * session, the organization of `/orgs/:orgId` (./route-scope.ts) and the domain errors as pages are
 * the kit's, as for actions (./define-action.ts). A GET that redirects stays a plain route.
 */
export function definePage<Path extends string>(spec: {
  readonly path: Path;
  readonly view: (args: PageArgs<Path>, ctx: RouteContext) => string | Promise<string>;
}): DashboardPage {
  return {
    path: spec.path,
    handler: (ctx) =>
      page(ctx, async (req, res, visitor) => {
        const scope = scopeOf(spec.path, paramsOf(req.params), visitor);
        const args = { ...scope, notice: notice(req), query: (name: string) => query(req, name) };
        sendPage(res, 200, await spec.view(args, ctx));
      }),
  };
}

/** Every page as a GET on `router`. */
export function mountPages(router: Router, ctx: RouteContext, pages: readonly DashboardPage[]): Router {
  for (const declared of pages) router.get(declared.path, declared.handler(ctx));
  return router;
}
