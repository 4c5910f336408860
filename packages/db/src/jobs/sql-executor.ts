import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.js';

/** What pg-boss's `db` option expects: a statement with or without values, rows back. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss sends a script of several statements (its maintenance) without values: flatten each result's rows. */
const flatten = (results: readonly { rows?: unknown[] }[]): unknown[] =>
  results.flatMap((result) => result.rows ?? []);

/** PostgreSQL: the service's pool. */
export function poolExecutor(pool: pg.Pool): SqlExecutor {
  return {
    async executeSql(text, values) {
      const result = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
      return { rows: Array.isArray(result) ? flatten(result) : result.rows };
    },
  };
}

/** PGlite: `query` takes one statement with values, `exec` a whole script. */
export function pgliteExecutor(db: PGlite): SqlExecutor {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return { rows: (await db.query(text, values)).rows };
      return { rows: flatten(await db.exec(text)) };
    },
  };
}

/**
 * Inside a Prisma interactive transaction, on either adapter: what makes pg-boss's INSERT
 * part of the change's transaction. Prisma refuses `undefined` values; pg-boss leaves unset
 * options undefined, and its SQL reads them as NULL.
 */
export function transactionExecutor(tx: Prisma.TransactionClient): SqlExecutor {
  return {
    async executeSql(text, values = []) {
      const rows = await tx.$queryRawUnsafe<unknown[]>(
        text,
        ...values.map((value) => (value === undefined ? null : value)),
      );
      return { rows };
    },
  };
}
