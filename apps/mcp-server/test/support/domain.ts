import type { DomainDeps } from '@cp/domain';
import { inMemoryDeps } from '@cp/domain/testing';

export interface TestDomain {
  readonly deps: DomainDeps;
  close(): Promise<void>;
}

/** Domain deps for transport-level tests. */
export async function createTestDomain(): Promise<TestDomain> {
  const { deps } = inMemoryDeps();
  return { deps: { ...deps, clock: { now: () => new Date() } }, close: async () => undefined };
}
