import type { Component, ComponentSummary, Variant } from '../entities/component.js';
import type { Flow, FlowStatus } from '../entities/flow.js';
import type { MemberOrganization, Membership, Organization } from '../entities/organization.js';
import type { Environment, Release, ReleaseEvent } from '../entities/release.js';
import type { UploadSession } from '../entities/upload-session.js';
import type { User } from '../entities/user.js';

/*
 * Ports implemented by packages/db. Methods documented as atomic must keep their
 * guarantee under concurrent calls from several processes: the database does the
 * work (row locks, conditional updates, constraints), not read-modify-write in JS.
 */

export interface NewOrganization {
  readonly id: string;
  readonly name: string;
  /** Environments created with the organization (ids chosen by the caller). */
  readonly environments: readonly { id: string; name: string }[];
}

export interface Users {
  /**
   * Atomic: creates the user, the organization, an owner membership, the
   * organization's environments and, when given, the user's password hash; the
   * organization becomes the user's default. Throws DomainError NAME_TAKEN when
   * the email (case-insensitive) is taken.
   */
  createWithOrganization(input: {
    user: { id: string; email: string; displayName: string | null };
    organization: NewOrganization;
    /** Opaque to the domain: computed and checked by the auth server, stored in the same transaction. */
    passwordHash?: string | undefined;
    now: Date;
  }): Promise<User>;
  findById(id: string): Promise<User | null>;
  /** The users among `ids` that exist, in any order, in one read (ids that are not UUIDs match none). */
  findByIds(ids: readonly string[]): Promise<User[]>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<User | null>;
}

export interface Organizations {
  /** Atomic: the organization, its environments and an owner membership for `ownerId`. */
  create(input: { organization: NewOrganization; ownerId: string; now: Date }): Promise<Organization>;
  findById(id: string): Promise<Organization | null>;
  /** The user's organizations, ordered by name then id. */
  listForUser(userId: string): Promise<MemberOrganization[]>;
  findMembership(userId: string, organizationId: string): Promise<Membership | null>;
}

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
   */
  editTags(id: string, edit: TagEdit, options: { now: Date; maxTags: number }): Promise<Component | null>;
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

export interface Variants {
  findById(id: string): Promise<Variant | null>;
  findLatest(componentId: string): Promise<Variant | null>;
  /** Newest first (highest sequence first). */
  listForComponent(componentId: string, options: { limit: number; beforeSequence?: number }): Promise<Variant[]>;
}

export interface ConfirmUploadInput {
  readonly sessionId: string;
  readonly now: Date;
  /** Set when the session creates a component: it is created in the same transaction. */
  readonly newComponent: { id: string; organizationId: string; name: string; description: string } | null;
  /** The component that receives the variant (the new one's id when `newComponent` is set). */
  readonly componentId: string;
  /** The variant; its sequence number is assigned by the repository. */
  readonly variant: {
    id: string;
    objectKey: string;
    size: number;
    sha256: string;
    integrity: string;
    createdBy: string;
  };
}

export interface UploadSessions {
  create(session: UploadSession): Promise<void>;
  findById(id: string): Promise<UploadSession | null>;
  /**
   * Atomic, and the only way a session becomes confirmed. In one transaction:
   * claims the session if it is still pending, creates the component when new,
   * adds the variant with the component's next sequence number (bumping
   * `variantsCount` and `updatedAt`), and stores the result on the session.
   * If the session is no longer pending, nothing is written and
   * `recorded` is false; `session` is then the stored session as it is.
   * Throws DomainError NAME_TAKEN (nothing written) when a new component's name
   * is already used in its organization.
   */
  confirm(input: ConfirmUploadInput): Promise<{ recorded: boolean; session: UploadSession }>;
  /** Pending sessions whose expiry is before `now`, oldest first. */
  listExpired(now: Date, limit: number): Promise<UploadSession[]>;
  /** Pending -> expired; false when the session was not pending. */
  markExpired(id: string): Promise<boolean>;
}

export interface Environments {
  /** Ordered by name. */
  listForOrganization(organizationId: string): Promise<Environment[]>;
  /** Exact (names are stored lower-case). */
  findByName(organizationId: string, name: string): Promise<Environment | null>;
  /** Throws DomainError NAME_TAKEN when the organization already has that name. */
  create(environment: { id: string; organizationId: string; name: string; now: Date }): Promise<Environment>;
  /** Null when it does not exist. Throws DomainError NAME_TAKEN when the organization already has that name. */
  rename(id: string, name: string): Promise<Environment | null>;
  /**
   * Atomic: deletes the environment only when nothing was ever released to it
   * (no current release, no history event). `in-use` changes nothing.
   */
  remove(id: string): Promise<'removed' | 'in-use' | 'missing'>;
}

export interface Releases {
  /**
   * Atomic: makes `variantId` the current release of the component in the
   * environment and appends a history event that records the previous variant.
   */
  publish(input: {
    eventId: string;
    componentId: string;
    environmentId: string;
    variantId: string;
    releasedBy: string;
    now: Date;
  }): Promise<ReleaseEvent>;
  /** The component's current releases, ordered by environment name. */
  listCurrent(componentId: string): Promise<Release[]>;
  findCurrent(componentId: string, environmentId: string): Promise<Release | null>;
  /**
   * Newest first (latest `releasedAt`, then the later insertion), at most `limit` events.
   * Keyset pages: with `before` (an event id), the events that follow it in that order
   * (older ones); with `after`, the `limit` events closest before it in that order (the
   * oldest of the newer ones), still newest first. At most one of the two. A cursor that
   * is not an event of this component throws DomainError NOT_FOUND.
   */
  history(componentId: string, options: { limit: number; before?: string; after?: string }): Promise<ReleaseEvent[]>;
}

export interface Flows {
  create(flow: {
    id: string;
    organizationId: string;
    name: string;
    componentIds: readonly string[];
    now: Date;
  }): Promise<Flow>;
  findById(id: string): Promise<Flow | null>;
  /** Replaces the ordered component list; null when the flow does not exist. */
  setComponents(id: string, componentIds: readonly string[], now: Date): Promise<Flow | null>;
  /**
   * Reads the list, applies `edit` (pure; what it throws aborts the change) and writes the
   * result, all under the flow's lock: concurrent edits of one flow apply one after the
   * other, each to the list the previous one left, so none is lost. Null when the flow
   * does not exist.
   */
  editComponents(id: string, edit: (current: readonly string[]) => readonly string[], now: Date): Promise<Flow | null>;
  setStatus(id: string, status: FlowStatus, now: Date): Promise<Flow | null>;
  /** The organization's flows, ordered by name (case-insensitive), then id. */
  listForOrganization(organizationId: string): Promise<Flow[]>;
}

export interface Repositories {
  readonly users: Users;
  readonly organizations: Organizations;
  readonly components: Components;
  readonly variants: Variants;
  readonly uploadSessions: UploadSessions;
  readonly environments: Environments;
  readonly releases: Releases;
  readonly flows: Flows;
}
