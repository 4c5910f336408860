import type { Component, Variant } from '../../entities/component.js';
import type { Role } from '../../entities/organization.js';
import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requireMembership } from '../access/require-membership.js';
import { requireVariant } from '../components/require-variant.js';

/** What publishing a variant would change, shown before the person confirms. */
export interface PublishPreview {
  readonly component: Component;
  readonly variant: Variant;
  /** The organization's environments, ordered by name, to choose from. */
  readonly environments: Environment[];
  /** The environment asked for, when the organization has it; null: the person chooses one. */
  readonly environment: Environment | null;
  /** What that environment serves now; null when nothing (or when none is chosen). */
  readonly serving: Variant | null;
  /** Releasing a variant older than the one served is a roll back. */
  readonly rollBack: boolean;
  /** The person's role in the component's organization: `canPublishTo(role, environment)` tells what they may release to. */
  readonly role: Role;
}

/** The confirmation step of a publish or roll back: nothing changes until publishVariant. */
export async function getPublishPreview(
  input: { actor: Actor; componentId: string; variantId: string; environment: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<PublishPreview> {
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const variant = await requireVariant(component.id, input.variantId, deps);
  const [environments, current, membership] = await Promise.all([
    deps.repos.environments.listForOrganization(component.organizationId),
    deps.repos.releases.listCurrent(component.id),
    requireMembership(input.actor, component.organizationId, deps),
  ]);
  const environment = environments.find((e) => e.name === input.environment) ?? null;
  const release =
    environment === null ? undefined : current.find((r) => r.environmentId === environment.id);
  const serving =
    release === undefined ? null : await deps.repos.variants.findById(release.variantId);
  return {
    component,
    variant,
    environments,
    environment,
    serving,
    rollBack: serving !== null && serving.sequence > variant.sequence,
    role: membership.role,
  };
}
