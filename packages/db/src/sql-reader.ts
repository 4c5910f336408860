import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/** A hand-written statement: `text` with $1..$n placeholders and its values (what `Prisma.sql` builds). */
export interface SqlStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * Runs hand-written read statements on the database driver itself, outside
 * Prisma. Measured on the MCP server's hot reads (bench/README.md): the same
 * statement costs ~400 µs more CPU through `$queryRaw` than through `pg`, and
 * for SQL we write ourselves Prisma adds nothing but that decoding. Rows come
 * back with the driver's types (timestamptz -> Date, int4 -> number, text[] ->
 * string[]) under the column names the statement gives them.
 * Writes and transactions stay on Prisma.
 */
export interface SqlReader {
  rows<R>(statement: SqlStatement): Promise<R[]>;
}

/** PostgreSQL: named statements on the shared pool, so each is planned once per connection. */
export function poolReader(pool: pg.Pool, statementName: (query: { sql: string }) => string): SqlReader {
  return {
    async rows<R>(statement: SqlStatement) {
      const result = await pool.query({
        name: statementName({ sql: statement.text }),
        text: statement.text,
        values: [...statement.values],
      });
      return result.rows as R[];
    },
  };
}

/** PGlite: its `query` waits for any open transaction, as a second connection would. */
export function pgliteReader(db: PGlite): SqlReader {
  return {
    async rows<R>(statement: SqlStatement) {
      const result = await db.query<R>(statement.text, [...statement.values]);
      return result.rows;
    },
  };
}
