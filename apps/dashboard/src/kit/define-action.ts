import { z } from 'zod';
import type { NoticeKey, RouteContext, Visitor } from '../routes/context.js';
import { readForm } from './form-input.js';
import { scopeOf, type RouteScope } from './route-scope.js';

/** What an action's use case is run with. */
export interface ActionArgs<Path extends string, Input> extends RouteScope<Path> {
  readonly input: Input;
}

/** How an action answers: a redirect with a notice (POST, redirect, GET), or a page of its own. */
export type Answer =
  | { readonly to: string; readonly notice?: NoticeKey }
  | { readonly status: number; readonly page: string };

export interface ActionSpec<Path extends string, Schema extends z.ZodType, Result> {
  readonly path: Path;
  /** The form's fields (./form-input.ts); none when omitted. */
  readonly input?: Schema;
  readonly run: (args: ActionArgs<Path, z.output<Schema>>, ctx: RouteContext) => Promise<Result>;
  readonly done: (result: Result, args: ActionArgs<Path, z.output<Schema>>, ctx: RouteContext) => Answer | Promise<Answer>;
}

/** A declared action, its types settled: what `mountActions` serves. */
export interface DashboardAction {
  readonly path: string;
  readonly perform: (request: ActionRequest, ctx: RouteContext) => Promise<Answer>;
}

export interface ActionRequest {
  readonly body: unknown;
  readonly params: Readonly<Record<string, string>>;
  readonly visitor: Visitor;
}

const NO_FIELDS = z.object({});

/**
 * One dashboard POST: its path, the form it reads, the use case it runs and where it goes
 * afterwards. The session, the CSRF check and the error pages are `mountActions`' (./mount-actions.ts).
 * A new form is one declaration in its area's list (routes/<area>-routes.ts) plus its use case.
 *
 * Under `/orgs/:orgId` the organization is the visitor's membership, checked before the form is
 * read (./route-scope.ts).
 *
 * No permission is declared here: each use case gates itself with the domain's `requirePermission`
 * (rules/roles.ts), some only after loading the record that names the organization (a component, a
 * flow, a release request) or by the target's role (member roles). A second gate here would repeat
 * the domain's wording of each refusal, or refuse in a different order than the domain does. Pages
 * that show or hide a control ask the domain's `can(role, Permission.X)`.
 */
export function defineAction<Path extends string, Result, Schema extends z.ZodType = typeof NO_FIELDS>(
  spec: ActionSpec<Path, Schema, Result>,
): DashboardAction {
  return {
    path: spec.path,
    perform: async ({ body, params, visitor }, ctx) => {
      const scope = scopeOf(spec.path, params, visitor);
      const args = { ...scope, input: readForm(spec.input ?? NO_FIELDS, body) as z.output<Schema> };
      return spec.done(await spec.run(args, ctx), args, ctx);
    },
  };
}
