import type { Role } from '../src/entities/organization.js';
import type { ExperienceDefinition, Segment, SegmentRule } from '../src/entities/experience.js';
import { released } from '../src/testing/publish-outcomes.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { aUser, anUploadedComponent } from './builders.js';

/**
 * An organization with one person per role and a component of three variants, the first
 * released to staging (open) and prod (protected): what experiences and rollouts sit on.
 */
export async function aTeamWithAReleasedComponent() {
  const { deps, repos, objects, clock } = inMemoryDeps();
  const owner = await aUser(deps);
  const join = async (role: Role) => {
    const person = await aUser(deps);
    repos.state.memberships.push({ userId: person.user.id, organizationId: owner.organizationId, role });
    return person;
  };
  const [admin, member, viewer] = [await join('admin'), await join('member'), await join('viewer')];
  const first = await anUploadedComponent(deps, objects, owner.actor, { name: 'Banner' });
  const { componentId } = first;
  const more = [];
  for (let i = 0; i < 2; i++) more.push(await anUploadedComponent(deps, objects, owner.actor, { componentId }));
  const variants = [first.variantId, ...more.map((v) => v.variantId)] as [string, string, string];
  for (const environment of ['staging', 'prod']) {
    released(await publishVariant({ actor: owner.actor, componentId, environment, variantId: variants[0] }, deps));
  }
  return { deps, repos, objects, clock, owner, admin, member, viewer, componentId, variants };
}

export const aRule = (attribute: string, operator: SegmentRule['operator'], ...values: string[]): SegmentRule => ({ attribute, operator, values });

export const aSegment = (overrides: Partial<Segment> & Pick<Segment, 'arms'>): Segment => ({ name: 'everyone', rules: [], ...overrides });

/** One segment splitting everyone between two variants, `first` thousandths of a percent to the first. */
export const aSplit = (a: string, b: string, first = 50_000): ExperienceDefinition => ({
  segments: [aSegment({ arms: [{ variantId: a, weight: first }, { variantId: b, weight: 100_000 - first }] })],
});
