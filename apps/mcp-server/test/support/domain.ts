import { randomUUID } from 'node:crypto';
import { createRolloutFigures, createUsageReader } from '@cp/db';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { defaultDomainConfig, type DomainConfig, type DomainDeps, type RolloutFigures, type UsageReader } from '@cp/domain';
import { createObjectStore, startEmbeddedS3 } from '@cp/storage';

export interface TestDomain {
  readonly deps: DomainDeps;
  /** The usage reader over the same database. */
  readonly usage: UsageReader;
  /** Rollout sessions per variant over the same database. */
  readonly figures: RolloutFigures;
  /** For what no port writes (memberships other than the owner's: `aMemberOf`). */
  readonly database: TestDatabase;
  /** Upload sessions stored for a user, counted in the database (what a limit must bound). */
  uploadSessionsOf(userId: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The domain over real infrastructure: a database of its own (PGlite, or a fresh
 * PostgreSQL database when DATABASE_URL is set) and the embedded S3 server over
 * HTTP, so presigned URLs work with curl.
 */
export async function createTestDomain(config: Partial<DomainConfig> = {}): Promise<TestDomain> {
  const domainConfig = { ...defaultDomainConfig, ...config };
  const [s3, database] = await Promise.all([
    startEmbeddedS3({ maxPutBytes: domainConfig.maxUploadBytes }),
    createTestDatabase(),
  ]);
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  return {
    database,
    deps: {
      repos: database.repos,
      objects,
      clock: { now: () => new Date() },
      ids: { newId: () => randomUUID() },
      config: domainConfig,
    },
    usage: createUsageReader(database.database.sql),
    figures: createRolloutFigures(database.database.sql),
    uploadSessionsOf: (userId) => database.prisma.uploadSession.count({ where: { userId } }),
    async close() {
      await Promise.all([s3.close(), database.close()]);
    },
  };
}
