import { randomUUID } from 'node:crypto';
import { defaultDomainConfig, type DomainConfig, type DomainDeps } from '@cp/domain';
import { createInMemoryRepositories } from '@cp/domain/testing';
import { createObjectStore, startEmbeddedS3 } from '@cp/storage';

export interface TestDomain {
  readonly deps: DomainDeps;
  close(): Promise<void>;
}

/**
 * The domain over real infrastructure: the embedded S3 server over HTTP (presigned
 * URLs work with curl) and the repositories.
 */
export async function createTestDomain(config: Partial<DomainConfig> = {}): Promise<TestDomain> {
  const s3 = await startEmbeddedS3();
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  const repos = createInMemoryRepositories();
  return {
    deps: {
      repos,
      objects,
      clock: { now: () => new Date() },
      ids: { newId: () => randomUUID() },
      config: { ...defaultDomainConfig, ...config },
    },
    close: () => s3.close(),
  };
}
