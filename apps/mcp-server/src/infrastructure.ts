import { createDatabase, createDomainDeps, createGrantLookup, createRolloutFigures, createUsageReader, migrate, type Database } from '@cp/db';
import type { DomainDeps, GrantLookup, RolloutFigures, UsageReader } from '@cp/domain';
import { createObjectStore, type S3Config } from '@cp/storage';

/** The domain over the real database and object store, plus the grant check. */
export interface Infrastructure {
  readonly domain: DomainDeps;
  readonly usage: UsageReader;
  readonly figures: RolloutFigures;
  readonly grants: GrantLookup;
  readonly database: Database;
}

export async function openInfrastructure(options: {
  databaseUrl: string | null;
  pgliteDataDir: string;
  s3: S3Config;
  maxUploadBytes: number;
  /** Apply pending migrations first (the embedded stack does; production runs `pnpm db:migrate`). */
  migrate: boolean;
}): Promise<Infrastructure> {
  const database = await createDatabase({ databaseUrl: options.databaseUrl ?? undefined, pgliteDataDir: options.pgliteDataDir });
  if (options.migrate) await migrate({ adapterFactory: database.adapterFactory });
  const objects = createObjectStore(options.s3);
  await objects.ensureBucket();
  return {
    database,
    grants: createGrantLookup(database.prisma),
    usage: createUsageReader(database.sql),
    figures: createRolloutFigures(database.sql),
    domain: createDomainDeps(database, objects, { maxUploadBytes: options.maxUploadBytes }),
  };
}
