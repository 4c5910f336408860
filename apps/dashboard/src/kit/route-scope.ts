import type { Actor, MemberOrganization } from '@cp/domain';
import { organizationOf, type Visitor } from '../routes/context.js';

/** The names of a path's `:params`. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<Path extends string> = { readonly [Name in ParamNames<Path>]: string };

/** Under `/orgs/:orgId`, the visitor's membership of that organization; elsewhere none. */
export type OrganizationOf<Path extends string> = Path extends `/orgs/:orgId${string}` ? MemberOrganization : null;

/** Who asks, and for what: what every page's view and every action's use case is given. */
export interface RouteScope<Path extends string> {
  readonly params: PathParams<Path>;
  readonly actor: Actor;
  readonly visitor: Visitor;
  readonly organization: OrganizationOf<Path>;
}

/**
 * The scope of a request to `path`. Under `/orgs/:orgId` the organization is the visitor's
 * membership, checked first: a foreign or unknown id is "not found", as on every page.
 */
export function scopeOf<Path extends string>(path: Path, params: Readonly<Record<string, string>>, visitor: Visitor): RouteScope<Path> {
  const organization = path.startsWith('/orgs/:orgId') ? organizationOf({ params }, visitor) : null;
  return { params: params as PathParams<Path>, actor: visitor.actor, visitor, organization: organization as OrganizationOf<Path> };
}

/** Express's params as text. */
export const paramsOf = (params: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));
