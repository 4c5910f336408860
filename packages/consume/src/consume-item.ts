import type { Component, LiveAssignment, Repositories, Variant } from '@cp/domain';
import { RELEASE_ARM, resolvePublicVariant } from '@cp/domain';
import type { Assignment, ConsumeResponse, ConsumeVariant } from './consume-schemas.js';
import type { VariantLoaders } from './variant-loaders.js';

export interface ConsumeTarget {
  /** Lower-cased UUID. */
  readonly componentId: string;
  /** Normalized environment name; null for the preview (latest variant). */
  readonly environment: string | null;
}

export interface ReadDeps {
  readonly repos: Repositories;
  readonly loaders: VariantLoaders;
}

export const variantName = (variant: Variant): string => `v${variant.sequence}`;

export async function consumeVariant(variant: Variant, deps: Pick<ReadDeps, 'loaders'>): Promise<ConsumeVariant> {
  return { id: variant.id, name: variantName(variant), loader: await deps.loaders.get(variant) };
}

export const consumeItemOf = (component: Pick<Component, 'id' | 'name' | 'organizationId'>, variants: ConsumeVariant[]) => ({
  id: component.id,
  name: component.name,
  organizationId: component.organizationId,
  consume_variant: variants,
});

/** The /consume body of one variant of a component: what the delivery API serves and the static export writes. */
export async function consumeResponseOf(
  component: Pick<Component, 'id' | 'name' | 'organizationId'>,
  variant: Variant,
  deps: Pick<ReadDeps, 'loaders'>,
): Promise<ConsumeResponse> {
  return { item: consumeItemOf(component, [await consumeVariant(variant, deps)]) };
}

export interface LoadedConsume {
  readonly response: ConsumeResponse;
  readonly organizationId: string;
  /** Only for the caller whose key opened it: never in a shared cache. */
  readonly privatePreview: boolean;
  /** What is live in the released environment (never on a preview): the descriptor's source, which keyed requests are assigned with. */
  readonly assignment: LiveAssignment | null;
  /** The arm this body is: RELEASE_ARM for the fallback. */
  readonly arm: string;
}

/** The descriptor of `assignment` on the body of `arm`: the buckets without variant ids (docs/experiences.md "Delivery"). */
export const descriptorOf = (assignment: LiveAssignment, arm: string): Assignment => ({
  revision: assignment.revision,
  kind: assignment.kind,
  arm,
  segments: assignment.segments.map((segment) => ({
    rules: segment.rules.map((rule) => ({ attribute: rule.attribute, operator: rule.operator, values: [...rule.values] })),
    salt: segment.salt,
    arms: segment.arms.map((entry) => ({ arm: entry.arm, upTo: entry.upTo })),
  })),
});

/** `response` as the body of `arm` while `assignment` is live: with the descriptor. */
export const withDescriptor = (response: ConsumeResponse, assignment: LiveAssignment, arm: string): ConsumeResponse => ({
  ...response,
  assignment: descriptorOf(assignment, arm),
});

/** The arms of `assignment` that serve a variant (not the release), each once, with that variant's id. */
export function variantArmsOf(assignment: LiveAssignment): Map<string, string> {
  const arms = new Map<string, string>();
  for (const segment of assignment.segments) {
    for (const entry of segment.arms) if (entry.variantId !== null) arms.set(entry.arm, entry.variantId);
  }
  return arms;
}

/** The variant `arm` serves in `assignment`; null for the release and for an arm the mapping does not have. */
export function armVariantOf(assignment: LiveAssignment, arm: string): string | null {
  if (arm === RELEASE_ARM) return null;
  for (const segment of assignment.segments) {
    for (const entry of segment.arms) if (entry.arm === arm && entry.variantId !== null) return entry.variantId;
  }
  return null;
}

/**
 * The /consume body: the variant released to the environment, or the latest
 * (domain rule), which a private-previews organization shows only to a caller
 * presenting one of its preview keys. A released environment's live assignment is
 * read beside it and sent as the descriptor. `arm` asks for an arm's variant instead:
 * an arm the current mapping no longer has gets the fallback, whose descriptor tells
 * the caller the mapping to pick from again.
 */
export async function loadConsumeResponse(
  target: ConsumeTarget,
  deps: ReadDeps,
  previewKey: string | null = null,
  arm: string = RELEASE_ARM,
): Promise<LoadedConsume> {
  const [{ component, variant: released, privatePreview }, assignment] = await Promise.all([
    resolvePublicVariant({ componentId: target.componentId, environment: target.environment ?? undefined, previewKey }, deps),
    target.environment === null ? null : deps.repos.assignments.findLive(target.componentId, target.environment),
  ]);
  const armVariantId = assignment === null ? null : armVariantOf(assignment, arm);
  // Gone since the mapping was read (a rollout promoted and the variant is the release now...): the fallback.
  const armVariant = armVariantId === null ? null : await deps.repos.variants.findById(armVariantId);
  const served = armVariant ?? released;
  const response = await consumeResponseOf(component, served, deps);
  const servedArm = armVariant === null ? RELEASE_ARM : arm;
  return {
    response: assignment === null ? response : withDescriptor(response, assignment, servedArm),
    organizationId: component.organizationId,
    privatePreview,
    assignment,
    arm: servedArm,
  };
}
