// `pnpm db:migration:new <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// from the difference between the committed migrations and prisma/schema.prisma.
// Needs no database: the migrations are replayed in a throw-away in-memory PGlite.
import { relative } from 'node:path';
import { createMigration } from '../migrations/migrate.js';

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name) {
    console.error(
      'Usage: pnpm db:migration:new <name>   (for example: pnpm db:migration:new add_flow_tags)',
    );
    process.exitCode = 2;
    return;
  }
  const { directory } = await createMigration(name);
  if (directory === null) {
    console.log('The schema matches the committed migrations: no migration written.');
    return;
  }
  console.log(
    `Wrote ${relative(process.cwd(), directory)}/migration.sql. Review it, then commit it.`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
