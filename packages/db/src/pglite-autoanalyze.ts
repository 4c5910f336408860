import type { PGlite } from '@electric-sql/pglite';

/*
 * PGlite runs no autovacuum, so its tables would never get statistics, and without
 * them the planner never picks the name search's trigram index. This does what
 * autoanalyze does on a server: at open, every table that holds rows (an empty one
 * has nothing to describe, and skipping them keeps opening a fresh database quick),
 * then, at each interval, each table whose rows changed by more than autovacuum's
 * default threshold (50 rows plus 10%) since it was last analyzed.
 */
const TABLES_WITH_ROWS = `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables
  WHERE pg_relation_size(relid) > 0`;
const CHANGED_TABLES = `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables
  WHERE n_mod_since_analyze > 50 + 0.1 * n_live_tup`;

export interface AutoAnalyze {
  /** Stops the checks and waits for one under way. */
  stop(): Promise<void>;
}

export async function startAutoAnalyze(db: PGlite, intervalMs = 30_000): Promise<AutoAnalyze> {
  const analyze = async (tables: string) => {
    // Change counts reach pg_stat_user_tables when the backend flushes them, which
    // PGlite, having no idle timer, may put off.
    await db.exec('SELECT pg_stat_force_next_flush()');
    const { rows } = await db.query<{ name: string }>(tables);
    for (const { name } of rows) await db.exec(`ANALYZE ${name}`);
  };
  await analyze(TABLES_WITH_ROWS);
  // One check at a time; a failed one (the database closing) is retried at the next
  // tick, and a query that needs the database reports the problem itself.
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => analyze(CHANGED_TABLES)).catch(() => undefined);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
