import type { Variant } from '../../entities/component.js';
import type { Environment, Release, ReleaseEvent } from '../../entities/release.js';
import type { DomainDeps } from '../../ports/deps.js';

/** What one environment serves, and the releases offered there. */
export interface EnvironmentReleases {
  readonly environment: Environment;
  /** Its current release; null when nothing was released there. */
  readonly current: Release | null;
  /** The latest variant, when the environment does not serve it already. */
  readonly publish: Variant | null;
  /** The roll back target (below); null when there is none. */
  readonly rollBack: Variant | null;
}

/**
 * Per environment: "publish" the latest variant, and "roll back" (apps/dashboard/README.md, "Decisions"): to the
 * variant the current release replaced when that is older; otherwise (a first release, or one that
 * was itself a roll back) to the variant before it. Never "back" to a newer variant: that is publish.
 */
export async function releaseChoices(
  input: {
    readonly componentId: string;
    readonly environments: readonly Environment[];
    readonly current: readonly Release[];
    /** The latest page of the release history, newest first: the event behind each current release, when it is there. */
    readonly history: readonly ReleaseEvent[];
    /** The latest page of variants, newest first. */
    readonly latestVariants: readonly Variant[];
    /** Every variant already read, by id. */
    readonly known: ReadonlyMap<string, Variant>;
  },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<EnvironmentReleases[]> {
  const { known, latestVariants } = input;
  const latest = latestVariants[0] ?? null;
  const lowestShown = latestVariants.at(-1)?.sequence ?? 0;
  // The variant just before `sequence`: from the latest page when it holds it, else one read.
  const olderThan = async (sequence: number): Promise<Variant | null> =>
    sequence > lowestShown
      ? latestVariants.find((v) => v.sequence < sequence) ?? null
      : sequence > 1 ? (await deps.repos.variants.listForComponent(input.componentId, { limit: 1, beforeSequence: sequence }))[0] ?? null : null;
  return Promise.all(input.environments.map(async (environment): Promise<EnvironmentReleases> => {
    const current = input.current.find((r) => r.environmentId === environment.id) ?? null;
    const serving = current === null ? undefined : known.get(current.variantId);
    const lastEvent = input.history.find((e) => e.environmentId === environment.id && e.variantId === current?.variantId);
    const replacedId = lastEvent?.previousVariantId ?? null;
    const replaced = replacedId === null ? undefined : known.get(replacedId);
    const target = serving === undefined ? null
      : replaced !== undefined && replaced.sequence < serving.sequence ? replaced : await olderThan(serving.sequence);
    return {
      environment,
      current,
      publish: latest !== null && latest.id !== current?.variantId ? latest : null,
      rollBack: target !== null && target.id !== current?.variantId ? target : null,
    };
  }));
}
