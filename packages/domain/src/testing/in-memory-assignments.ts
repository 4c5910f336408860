import type { Assignments } from '../ports/experiences.js';
import { experienceAssignment } from '../rules/experience-definition.js';
import { rolloutAssignment } from '../rules/rollout-guard.js';
import { liveRevision } from './in-memory-experiences.js';
import { liveRollout } from './in-memory-rollouts.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

/** The delivery API's read over the in-memory experiences and rollouts; arms named `v<sequence>`. */
export function inMemoryAssignments(state: InMemoryState): Assignments {
  const nameOf = (variantId: string) => `v${byKey(state.variants, variantId)?.sequence ?? '?'}`;
  return {
    async findLive(componentId, environmentName) {
      const component = byKey(state.components, componentId);
      const environment = state.environments.find((e) => e.organizationId === component?.organizationId && e.name === environmentName);
      if (!environment) return null;
      const revision = state.assignmentRevisions.get(`${componentId}:${environment.id}`) ?? 0;
      const rollout = liveRollout(state, componentId, environment.id);
      if (rollout) return rollout.weight > 0 ? rolloutAssignment(rollout, revision, nameOf(rollout.candidateVariantId)) : null;
      const live = liveRevision(state, componentId, environment.id);
      return live ? experienceAssignment(live, revision, nameOf) : null;
    },
  };
}
