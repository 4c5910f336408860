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
 * statement costs markedly more CPU through `$queryRaw` than through `pg`, and
 * for SQL we write ourselves Prisma adds nothing but that decoding. Rows come
 * back with the driver's types (timestamptz -> Date, int4 -> number, text[] ->
 * string[]) under the column names the statement gives them.
 * Writes and transactions stay on Prisma.
 */
export interface SqlReader {
  rows<R>(statement: SqlStatement, options?: ReadOptions): Promise<R[]>;
}

export interface ReadOptions {
  /**
   * Plan the statement for these values at every call instead of once per connection.
   * A prepared statement switches to one generic plan after a few calls, and when the
   * best plan depends on a value (the name filter: the trigram index for a rare
   * fragment, the ordered scan for a common or short one) that plan is badly wrong
   * for some of them.
   */
  readonly planEachCall?: boolean;
}

/**
 * PostgreSQL: named statements on the shared pool, so each is planned once per
 * connection; with `planEachCall`, unnamed ones, which PostgreSQL plans for their values.
 */
export function poolReader(pool: pg.Pool, statementName: (query: { sql: string }) => string): SqlReader {
  return {
    async rows<R>(statement: SqlStatement, options?: ReadOptions) {
      const result = await pool.query({
        ...(options?.planEachCall ? {} : { name: statementName({ sql: statement.text }) }),
        text: statement.text,
        values: [...statement.values],
      });
      return result.rows as R[];
    },
  };
}

/**
 * PGlite: its `query` waits for any open transaction, as a second connection would.
 * It sends every statement unnamed, so each call is planned for its values anyway.
 */
export function pgliteReader(db: PGlite): SqlReader {
  return {
    async rows<R>(statement: SqlStatement) {
      const result = await db.query<R>(statement.text, [...statement.values]);
      return result.rows;
    },
  };
}
