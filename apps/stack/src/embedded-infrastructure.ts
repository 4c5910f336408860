import { mkdir } from 'node:fs/promises';
import {
  createDatabase,
  createDomainDeps,
  createGrantLookup,
  createPglite,
  migrate,
  type Database,
} from '@cp/db';
import type { DomainDeps } from '@cp/domain';
import { createObjectStore, startEmbeddedS3, type S3Config } from '@cp/storage';
import type { PGlite } from '@electric-sql/pglite';

/** What every service of the embedded stack shares: one PGlite, one S3 server. */
export interface EmbeddedInfrastructure {
  readonly pglite: PGlite;
  readonly database: Database;
  readonly domain: DomainDeps;
  readonly grants: ReturnType<typeof createGrantLookup>;
  readonly s3Endpoint: string;
  /** The embedded S3 server's settings (its bucket: the variants'). Holds the secret key: do not log it. */
  readonly s3Config: S3Config;
  close(): Promise<void>;
}

/**
 * PGlite in `pgliteDir` (migrated on every start) and the in-process S3 server
 * keeping its objects in `s3Dir`. PGlite serves one process, which is why the whole
 * stack runs in this one.
 */
export async function openEmbeddedInfrastructure(options: {
  pgliteDir: string;
  s3Dir: string;
  s3Port: number;
  /** The embedded S3 server's interface (STACK_HOST). */
  host: string;
  maxUploadBytes: number;
}): Promise<EmbeddedInfrastructure> {
  const { pgliteDir, s3Dir } = options;
  await Promise.all([mkdir(pgliteDir, { recursive: true }), mkdir(s3Dir, { recursive: true })]);
  const pglite = await createPglite({ dataDir: pgliteDir });
  const database = await createDatabase({ pglite });
  await migrate({ adapterFactory: database.adapterFactory });
  // The store refuses what confirm_upload would refuse, so nothing larger is ever stored.
  const s3 = await startEmbeddedS3({
    directory: s3Dir,
    port: options.s3Port,
    host: options.host,
    maxPutBytes: options.maxUploadBytes,
  });
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  return {
    pglite,
    database,
    grants: createGrantLookup(database.prisma),
    s3Endpoint: s3.endpoint,
    s3Config: s3.config,
    domain: createDomainDeps(database, objects, { maxUploadBytes: options.maxUploadBytes }),
    async close() {
      await s3.close();
      await database.close();
      await pglite.close();
    },
  };
}
