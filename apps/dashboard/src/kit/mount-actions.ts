import type { RequestHandler, Router } from 'express';
import { formBody, page, sendPage, type RouteContext } from '../routes/context.js';
import type { Answer, DashboardAction } from './define-action.js';
import { paramsOf } from './route-scope.js';

/**
 * An action as a request handler: `page` brings the session (signed out: to the sign-in), the CSRF
 * check and the domain errors as pages; then the form is read, the use case run and the answer sent.
 */
export const actionHandler = (ctx: RouteContext, action: DashboardAction): RequestHandler =>
  page(ctx, async (req, res, visitor) => {
    const answer: Answer = await action.perform({ body: req.body, params: paramsOf(req.params), visitor }, ctx);
    if ('page' in answer) return sendPage(res, answer.status, answer.page);
    res.redirect(303, answer.notice === undefined ? answer.to : `${answer.to}${answer.to.includes('?') ? '&' : '?'}notice=${answer.notice}`);
  });

/** Every action as a POST on `router`, its form read with the dashboard's body limits (or `body`'s, for a larger form). */
export function mountActions(router: Router, ctx: RouteContext, actions: readonly DashboardAction[], body: RequestHandler = formBody): Router {
  for (const action of actions) router.post(action.path, body, actionHandler(ctx, action));
  return router;
}
