import type { ComponentSummary } from '../../entities/component.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import { componentNameKey } from '../../rules/names.js';
import type { OrganizationRequest } from '../access/organization-request.js';
import { componentsInScope } from '../access/credential-scope.js';
import { requireMembership } from '../access/require-membership.js';
import { pagingNumber } from '../paging/paging-number.js';
import { decodeCursor, encodeCursor } from './component-cursor.js';

export interface ListComponentsInput extends OrganizationRequest {
  /** Case-insensitive substring of the name. */
  readonly name?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

export interface ComponentPage {
  readonly components: ComponentSummary[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

export async function listComponents(
  input: ListComponentsInput,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ComponentPage> {
  const limit = pagingNumber('limit', input.limit ?? Limits.listDefault, Limits.listMax);
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const name = input.name?.trim();
  // The page is read only if the actor is a member (one statement). An empty page
  // cannot tell "not a member" from "no components", so only then is membership
  // checked on its own: a stranger still gets "not found".
  // Through a credential the organization is checked first: the read below knows only the person.
  if (input.actor.credential !== undefined) await requireMembership(input.actor, input.organizationId, deps);
  const rows = await deps.repos.components.list({
    organizationId: input.organizationId,
    memberId: input.actor.userId,
    // One extra row tells whether another page exists without a count query.
    limit: limit + 1,
    ...(name ? { nameContains: name } : {}),
    ...(after ? { after } : {}),
  });
  if (rows.length === 0) await requireMembership(input.actor, input.organizationId, deps);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last ? encodeCursor({ nameKey: componentNameKey(last.name), id: last.id }) : null;
  // A credential narrowed to components sees only those; the cursor still follows the whole page.
  return { components: componentsInScope(input.actor, page, (c) => c.id), nextCursor };
}
