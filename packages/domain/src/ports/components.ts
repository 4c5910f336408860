import type { AuditNote } from '../entities/audit-event.js';
import type { Component, ComponentSummary } from '../entities/component.js';

/** Position after which the next page of a component listing starts. */
export interface ComponentCursor {
  /** The last row's name, lower-cased. */
  readonly nameKey: string;
  readonly id: string;
}

export type TagEdit =
  | { readonly kind: 'set'; readonly tags: readonly string[] }
  | { readonly kind: 'change'; readonly add: readonly string[]; readonly remove: readonly string[] };

export interface Components {
  findById(id: string): Promise<Component | null>;
  /**
   * The component when `userId` is a member of its organization, else null, in
   * one read: the access check of every component use case, on the hot path.
   */
  findForMember(id: string, userId: string): Promise<Component | null>;
  /** Case-insensitive exact name match within one organization. */
  findByName(organizationId: string, name: string): Promise<Component | null>;
  /**
   * Ordered by lower-cased name, then id (keyset pagination: rows inserted while a
   * client pages never cause a row to be skipped or repeated). `nameContains`
   * is a case-insensitive substring match, with `%` and `_` taken literally.
   */
  list(query: {
    organizationId: string;
    nameContains?: string;
    limit: number;
    after?: ComponentCursor;
    /** When set, rows come back only if this user is a member of the organization (same read). */
    memberId?: string;
  }): Promise<ComponentSummary[]>;
  /**
   * Atomic tag edit. Tags arrive trimmed and de-duplicated. `change` appends
   * the added tags not present (keeping existing order), then removes; `set`
   * replaces the list. `updatedAt` moves to `now`; no variant is created.
   * Returns null when the component does not exist. Throws DomainError
   * TOO_MANY_TAGS, changing nothing, when the result would hold more than `maxTags`.
   * Writes a TagsChanged audit row ({ before, after }) when the list changed, none otherwise.
   */
  editTags(
    id: string,
    edit: TagEdit,
    options: { now: Date; maxTags: number; audit: AuditNote },
  ): Promise<Component | null>;
  /**
   * Most recently updated first (then id), for people browsing an organization.
   * `nameContains` as in `list`; `tag` is an exact (case-sensitive) tag.
   * Offset pagination: the page is what a person asked for, not a cursor.
   */
  listRecentlyUpdated(query: {
    organizationId: string;
    nameContains?: string;
    tag?: string;
    limit: number;
    offset: number;
  }): Promise<ComponentSummary[]>;
}
