import { randomUUID } from 'node:crypto';
import { defaultDomainConfig, type DomainConfig, type DomainDeps, type ObjectStore } from '@cp/domain';
import type { Database } from './client.js';
import { createRepositories } from './repositories/index.js';

/** What the use cases run on in a service: this database's repositories, the object store, the system clock and random ids. */
export function createDomainDeps(
  database: Pick<Database, 'prisma' | 'sql'>,
  objects: ObjectStore,
  config: Partial<DomainConfig> = {},
): DomainDeps {
  return {
    repos: createRepositories(database),
    objects,
    clock: { now: () => new Date() },
    ids: { newId: () => randomUUID() },
    config: { ...defaultDomainConfig, ...config },
  };
}
