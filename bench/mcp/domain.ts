// bench/ is not a workspace package: workspace sources are imported by path.
import { randomUUID } from 'node:crypto';
import { defaultDomainConfig, type DomainDeps } from '../../packages/domain/src/index.js';
import { createInMemoryRepositories } from '../../packages/domain/src/testing/index.js';
import { createObjectStore, startEmbeddedS3 } from '../../packages/storage/src/index.js';

/** PLACEHOLDER until @cp/db lands: swapped for PostgreSQL repositories. */
export async function openBenchDomain(): Promise<{ deps: DomainDeps; close(): Promise<void> }> {
  const s3 = await startEmbeddedS3();
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  return {
    deps: { repos: createInMemoryRepositories(), objects, clock: { now: () => new Date() }, ids: { newId: () => randomUUID() }, config: defaultDomainConfig },
    close: () => s3.close(),
  };
}
