// bench/ is not a workspace package: workspace sources are imported by path.
import { randomUUID } from 'node:crypto';
import { createDatabase, createRepositories, migrate } from '../../packages/db/src/index.js';
import { defaultDomainConfig, type DomainDeps } from '../../packages/domain/src/index.js';
import { createObjectStore, startEmbeddedS3 } from '../../packages/storage/src/index.js';

export interface BenchDomain {
  readonly deps: DomainDeps;
  readonly databaseUrl: string;
  /** One SQL statement with $1, $2... parameters (bulk seeding). */
  execute(sql: string, ...values: unknown[]): Promise<void>;
  analyze(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The domain over real PostgreSQL (a database of its own, created, migrated and
 * dropped here) and the embedded S3 server. BENCH_POSTGRES_URL names the server
 * (default: the local one, trust auth).
 */
export async function openBenchDomain(): Promise<BenchDomain> {
  const server = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `cp_bench_${Date.now()}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  await migrate({ databaseUrl: url.toString() });
  const database = await createDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  // Bulk seeding takes far longer than the statement deadline the app serves with.
  const seeding = await createDatabase({ databaseUrl: url.toString(), poolSize: 1, queryTimeoutMs: 10 * 60_000 });
  const s3 = await startEmbeddedS3();
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  return {
    databaseUrl: url.toString(),
    deps: {
      repos: createRepositories(database),
      objects,
      clock: { now: () => new Date() },
      ids: { newId: () => randomUUID() },
      config: defaultDomainConfig,
    },
    async execute(sql, ...values) {
      await seeding.prisma.$executeRawUnsafe(sql, ...values);
    },
    async analyze() {
      await seeding.prisma.$executeRawUnsafe('ANALYZE');
    },
    async close() {
      await seeding.close();
      await database.close();
      await s3.close();
      const admin = await createDatabase({ databaseUrl: server, poolSize: 1, queryTimeoutMs: 60_000 });
      await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
