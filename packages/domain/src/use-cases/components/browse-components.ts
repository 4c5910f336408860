import type { ComponentSummary } from '../../entities/component.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import type { OrganizationRequest } from '../access/organization-request.js';
import { componentsInScope } from '../access/credential-scope.js';
import { requireMembership } from '../access/require-membership.js';
import { pagingNumber } from '../paging/paging-number.js';

export interface BrowseComponentsInput extends OrganizationRequest {
  /** Case-insensitive substring of the name. */
  readonly name?: string | undefined;
  /** Exact tag (tags compare case-sensitively, docs/rules.md). */
  readonly tag?: string | undefined;
  /** 1-based. */
  readonly page?: number | undefined;
  readonly pageSize?: number | undefined;
}

export interface ComponentBrowsePage {
  readonly components: ComponentSummary[];
  readonly page: number;
  readonly pageSize: number;
  readonly hasNextPage: boolean;
}

/** The largest page a person can ask for (no one reads beyond it; the query stays bounded). */
export const BROWSE_MAX_PAGE = 1000;

/**
 * An organization's components for people browsing them (the dashboard): most
 * recently updated first, filtered by name and tag, in numbered pages.
 * (`listComponents` is the MCP tools' stable name-ordered keyset listing.)
 */
export async function browseComponents(
  input: BrowseComponentsInput,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ComponentBrowsePage> {
  const pageSize = pagingNumber('pageSize', input.pageSize ?? 20, Limits.listMax);
  const page = pagingNumber('page', input.page ?? 1, BROWSE_MAX_PAGE);
  await requireMembership(input.actor, input.organizationId, deps);
  const name = input.name?.trim();
  const tag = input.tag?.trim();
  const rows = await deps.repos.components.listRecentlyUpdated({
    organizationId: input.organizationId,
    limit: pageSize + 1,
    offset: (page - 1) * pageSize,
    ...(name ? { nameContains: name } : {}),
    ...(tag ? { tag } : {}),
  });
  return { components: componentsInScope(input.actor, rows.slice(0, pageSize), (c) => c.id), page, pageSize, hasNextPage: rows.length > pageSize };
}
