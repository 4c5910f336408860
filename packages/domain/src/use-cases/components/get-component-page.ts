import type { Component, Variant } from '../../entities/component.js';
import type { Role } from '../../entities/organization.js';
import type { ReleaseEvent } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requireMembership } from '../access/require-membership.js';
import { listReleaseHistory } from '../releases/list-release-history.js';
import { releaseChoices, type EnvironmentReleases } from '../releases/release-choices.js';
import { listVariants, type VariantListing } from './list-variants.js';
import { requireVariant } from './require-variant.js';

export interface ComponentPageInput {
  readonly actor: Actor;
  readonly componentId: string;
  /** The variant to preview; null: the latest. */
  readonly variantId: string | null;
  /** Variants with a lower sequence; undefined: the latest variants. */
  readonly variantsBefore?: number | undefined;
  /** Release events older than this event; at most one of the two. */
  readonly releasesBefore?: string | undefined;
  /** Release events newer than this event. */
  readonly releasesAfter?: string | undefined;
  readonly pageSizes: { readonly variants: number; readonly releaseEvents: number };
}

/** Where a keyset list is: the page asked for, and the cursors around it. */
export interface ListPosition<Cursor> {
  /** True on the newest page (no cursor asked for). */
  readonly isLatest: boolean;
  /** The cursor of the next newer page, 'latest' when that page is the latest one; null when nothing is newer. */
  readonly newer: Cursor | 'latest' | null;
  /** The cursor of the next older page; null when nothing is older. */
  readonly older: Cursor | null;
}

export interface ComponentPageView {
  readonly component: Component;
  /** From the latest pages, whatever page the lists show. */
  readonly environments: EnvironmentReleases[];
  readonly variants: ListPosition<number> & { readonly items: VariantListing['variants'] };
  readonly history: ListPosition<string> & { readonly items: ReleaseEvent[] };
  /** The variant asked for, else the latest; null when there is none. */
  readonly preview: Variant | null;
  /** Every variant the page names (lists, history, environments, preview), by id. */
  readonly variantsById: ReadonlyMap<string, Variant>;
  /** The email of every person the lists name, by user id (read at once); a former user has none. */
  readonly emails: ReadonlyMap<string, string>;
  /** The person's role in the component's organization: `canPublishTo(role, environment)` tells where they may publish. */
  readonly role: Role;
}

/**
 * A component for the people working on it: details, environments with what to publish or roll back,
 * one page of variants, one page of release history. Any id the page is given that is not this
 * component's (variant, release event) is "not found", like an unknown id.
 */
export async function getComponentPage(
  input: ComponentPageInput,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ComponentPageView> {
  const { actor, pageSizes } = input;
  const component = await loadAccessibleComponent(actor, input.componentId, deps);
  const componentId = component.id;
  const variantsPage = (beforeSequence?: number) =>
    listVariants({ actor, componentId, limit: pageSizes.variants, beforeSequence }, deps);
  const historyPage = (before?: string, after?: string) =>
    listReleaseHistory({ actor, componentId, limit: pageSizes.releaseEvents, before, after }, deps);
  const historyPaged = input.releasesBefore !== undefined || input.releasesAfter !== undefined;
  const [
    latestVariants,
    olderVariants,
    latestHistory,
    olderHistory,
    environments,
    chosen,
    membership,
  ] = await Promise.all([
    variantsPage(),
    input.variantsBefore === undefined ? null : variantsPage(input.variantsBefore),
    historyPage(),
    historyPaged ? historyPage(input.releasesBefore, input.releasesAfter) : null,
    deps.repos.environments.listForOrganization(component.organizationId),
    input.variantId === null ? null : requireVariant(componentId, input.variantId, deps),
    requireMembership(actor, component.organizationId, deps),
  ]);
  const variants = olderVariants ?? latestVariants;
  const history = olderHistory ?? latestHistory;
  const latestList = latestVariants.variants.map(({ variant }) => variant);

  const known = new Map(
    [...latestList, ...variants.variants.map(({ variant }) => variant)].map((v) => [v.id, v]),
  );
  if (chosen !== null) known.set(chosen.id, chosen);
  const named = [...latestHistory.history, ...history.history]
    .flatMap((e) => [e.variantId, e.previousVariantId])
    .concat(latestHistory.current.map((r) => r.variantId));
  await readMissing(known, named, deps);
  const [choices, emails] = await Promise.all([
    releaseChoices(
      {
        componentId,
        environments,
        current: latestHistory.current,
        history: latestHistory.history,
        latestVariants: latestList,
        known,
      },
      deps,
    ),
    emailsOf(
      [
        ...variants.variants.map(({ variant }) => variant.createdBy),
        ...history.history.map((e) => e.releasedBy),
      ],
      deps,
    ),
  ]);
  for (const { rollBack } of choices) if (rollBack !== null) known.set(rollBack.id, rollBack);

  // Sequences are 1, 2, 3…: the newer page starts a page above this cursor; past the newest variant, it is the latest page.
  const newerBefore =
    input.variantsBefore === undefined ? null : input.variantsBefore + pageSizes.variants;
  const newestShown = latestList[0]?.sequence ?? 0;
  return {
    component,
    environments: choices,
    variants: {
      items: variants.variants,
      isLatest: input.variantsBefore === undefined,
      newer: newerBefore === null ? null : newerBefore > newestShown ? 'latest' : newerBefore,
      older: variants.nextBeforeSequence,
    },
    history: {
      items: history.history,
      isLatest: !historyPaged,
      newer: history.newerAfter,
      older: history.olderBefore,
    },
    preview: chosen ?? latestList[0] ?? null,
    variantsById: known,
    emails,
    role: membership.role,
  };
}

/** Adds the variants named by id that are on no page read (older ones, or only in the history). */
async function readMissing(
  known: Map<string, Variant>,
  ids: readonly (string | null)[],
  deps: Pick<DomainDeps, 'repos'>,
): Promise<void> {
  const missing = [...new Set(ids)].filter((id): id is string => id !== null && !known.has(id));
  for (const variant of await Promise.all(missing.map((id) => deps.repos.variants.findById(id)))) {
    if (variant !== null) known.set(variant.id, variant);
  }
}

/** One read for every person a page names. */
async function emailsOf(
  userIds: readonly string[],
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Map<string, string>> {
  const users = await deps.repos.users.findByIds([...new Set(userIds)]);
  return new Map(users.map((user) => [user.id, user.email]));
}
