import { releaseCountsContract } from '@cp/domain/testing';
import { aComponent, aVariant } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('release counts', (db) => {
  releaseCountsContract(() => ({
    repos: db().repos,
    aComponent: async (organizationId, createdBy) => {
      const component = await aComponent(db().repos, { organizationId, createdBy });
      const first = (await db().repos.variants.findLatest(component.id))!;
      const second = await aVariant(db().repos, { componentId: component.id, createdBy });
      return { id: component.id, variants: [first.id, second.id] };
    },
  }));
});
