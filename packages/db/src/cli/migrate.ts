// `pnpm db:migrate`: applies pending migrations to DATABASE_URL, or to the
// embedded PGlite database (PGLITE_DATA_DIR, default <repo>/.data/pglite).
import { createDatabase } from '../client.js';
import { describeServer, databaseName } from '../connection/postgres-url.js';
import { migrate } from '../migrations/migrate.js';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const log = (line: string) => console.log(line);
  if (databaseUrl) {
    const { applied } = await migrate({ databaseUrl, log });
    report(applied, `PostgreSQL ${describeServer(databaseUrl)}/${databaseName(databaseUrl)}`);
    return;
  }
  // PGlite serves one process: stop the services using this folder before migrating it.
  const db = await createDatabase({ pgliteDataDir: process.env.PGLITE_DATA_DIR || undefined });
  try {
    const { applied } = await migrate({ adapterFactory: db.adapterFactory, log });
    report(applied, `PGlite ${db.location}`);
  } finally {
    await db.close();
  }
}

function report(applied: string[], where: string): void {
  console.log(
    applied.length === 0
      ? `${where} is up to date.`
      : `${where}: applied ${applied.length} migration${applied.length === 1 ? '' : 's'}.`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
