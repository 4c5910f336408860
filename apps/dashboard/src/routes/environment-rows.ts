import type { Environment, Release, ReleaseEvent, Variant } from '@cp/domain';
import type { EnvironmentRow } from '../pages/component-page.js';

/**
 * The component page's environment rows: what each serves, "Publish" the latest variant, and
 * "Roll back" (README "Roll back target"): to the variant the current release replaced when that
 * is older; otherwise (a first release, or one that was itself a roll back) to the variant before
 * it. Never "back" to a newer variant: that is Publish.
 */
export async function environmentRows(input: {
  readonly componentId: string;
  readonly environments: readonly Environment[];
  readonly current: readonly Release[];
  /** The latest page of the release history, newest first: the event behind each current release, when it is there. */
  readonly history: readonly ReleaseEvent[];
  /** The latest page of variants, newest first. */
  readonly latestVariants: readonly Variant[];
  /** Every variant the page names, by id. */
  readonly known: ReadonlyMap<string, Variant>;
  readonly label: (variantId: string | null) => string;
  /** The variant just before `sequence`, read when the latest page does not hold it. */
  readonly olderThan: (sequence: number) => Promise<Variant | null>;
}): Promise<EnvironmentRow[]> {
  const { componentId, known, label, latestVariants } = input;
  const latest = latestVariants[0] ?? null;
  const lowestShown = latestVariants.at(-1)?.sequence ?? 0;
  const publishHref = (environment: string, variantId: string) => `/component/${componentId}/publish?environment=${environment}&variant=${variantId}`;
  return Promise.all(input.environments.map(async (env): Promise<EnvironmentRow> => {
    const current = input.current.find((r) => r.environmentId === env.id) ?? null;
    const currentVariant = current === null ? undefined : known.get(current.variantId);
    const lastEvent = input.history.find((e) => e.environmentId === env.id && e.variantId === current?.variantId);
    let older: Variant | null = null;
    if (currentVariant !== undefined) {
      older = currentVariant.sequence > lowestShown
        ? latestVariants.find((v) => v.sequence < currentVariant.sequence) ?? null
        : currentVariant.sequence > 1 ? await input.olderThan(currentVariant.sequence) : null;
    }
    const replaced = lastEvent?.previousVariantId ?? null;
    const replacedIsOlder = replaced !== null && currentVariant !== undefined && (known.get(replaced)?.sequence ?? 0) < currentVariant.sequence;
    const previous = (replacedIsOlder ? replaced : null) ?? older?.id ?? null;
    return {
      name: env.name,
      current: current === null ? null : { label: label(current.variantId), since: current.releasedAt },
      publish: latest !== null && latest.id !== current?.variantId ? { href: publishHref(env.name, latest.id), label: `Publish v${latest.sequence}` } : null,
      rollBack: previous !== null && previous !== current?.variantId ? { href: publishHref(env.name, previous), label: `Roll back to ${label(previous)}` } : null,
    };
  }));
}
