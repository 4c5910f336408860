import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { withClient } from '../connection/ensure-database.js';
import { connectionError, databaseUrlFor, quoteIdent } from '../connection/postgres-url.js';
import { migrate } from '../migrations/migrate.js';
import {
  migrationChecksum,
  migrationsFingerprint,
  readMigrations,
} from '../migrations/migrations-dir.js';

/*
 * One PostgreSQL database per test file, copied from a migrated template
 * (CREATE DATABASE ... TEMPLATE is a file copy: far faster than migrating).
 * The template is named by a hash of the committed migrations. Parallel jest
 * workers coordinate through an advisory lock on the server: whoever checks or
 * builds the template holds it exclusively; copying holds it shared, because a
 * copy fails while anyone is connected to the template.
 * An existing template is verified (names and checksums in _prisma_migrations)
 * before use, and rebuilt when it does not match.
 */

// Any constant; must differ from Prisma's migration lock (72707369).
const TEMPLATE_LOCK = 4_242_017_301;

let verified: Promise<string> | undefined;

/** Creates `cp_test_<hash>_<pid>_<random>` from the template; returns its connection string. */
export async function createDatabaseFromTemplate(
  serverUrl: string,
): Promise<{ url: string; name: string }> {
  const template = await ensureTemplate(serverUrl);
  const name = `${template.replace('_template_', '_')}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock_shared($1)', [TEMPLATE_LOCK]);
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock_shared($1)', [TEMPLATE_LOCK]);
    }
  });
  return { url: databaseUrlFor(serverUrl, name), name };
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withAdmin(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

/** The template's name, after making sure it exists and matches the migrations (once per process). */
function ensureTemplate(serverUrl: string): Promise<string> {
  verified ??= (async () => {
    const list = await readMigrations();
    const template = `cp_test_template_${migrationsFingerprint(list).slice(0, 12)}`;
    const expected = new Map(
      list.migrationDirectories.map((dir) => [
        dir.path,
        dir.migrationFile.content.tag === 'ok'
          ? migrationChecksum(dir.migrationFile.content.value)
          : '',
      ]),
    );
    await withAdmin(serverUrl, async (client) => {
      await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      try {
        const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
          template,
        ]);
        if (rowCount && (await matches(databaseUrlFor(serverUrl, template), expected))) return;
        if (rowCount) await client.query(`DROP DATABASE ${quoteIdent(template)} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${quoteIdent(template)}`);
        try {
          await migrate({ databaseUrl: databaseUrlFor(serverUrl, template) });
        } catch (error) {
          await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(template)} WITH (FORCE)`);
          throw error;
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
      }
    });
    return template;
  })();
  verified.catch(() => (verified = undefined));
  return verified;
}

/** True when the database has exactly these migrations applied, with these checksums. */
async function matches(url: string, expected: Map<string, string>): Promise<boolean> {
  const rows = await withClient(url, async (client) => {
    const result = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM _prisma_migrations
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    return result.rows;
  }).catch(() => null);
  return (
    rows !== null &&
    rows.length === expected.size &&
    rows.every((row) => expected.get(row.migration_name) === row.checksum)
  );
}

/** A connection to the server's `postgres` database, with a message that says what to start when it fails. */
async function withAdmin<T>(
  serverUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const adminUrl = databaseUrlFor(serverUrl, 'postgres');
  let connected = false;
  try {
    return await withClient(adminUrl, (client) => {
      connected = true;
      return work(client);
    });
  } catch (error) {
    if (connected) throw error;
    const reason = connectionError(serverUrl, error);
    const message = reason instanceof Error ? reason.message : String(reason);
    throw new Error(`Test databases run on PostgreSQL because DATABASE_URL is set. ${message}`, {
      cause: error,
    });
  }
}
