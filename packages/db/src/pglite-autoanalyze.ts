import type { PGlite } from '@electric-sql/pglite';

/*
 * PGlite runs no autovacuum, so its tables would never get statistics, and without
 * them the planner never picks the name search's trigram index. This does what
 * autoanalyze does on a server: every table at open, then, at each interval, each
 * table whose rows changed by more than autovacuum's default threshold (50 rows
 * plus 10%) since it was last analyzed.
 */
const CHANGED_TABLES = `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables
  WHERE n_mod_since_analyze > 50 + 0.1 * n_live_tup`;

export interface AutoAnalyze {
  /** Stops the checks and waits for one under way. */
  stop(): Promise<void>;
}

export async function startAutoAnalyze(db: PGlite, intervalMs = 30_000): Promise<AutoAnalyze> {
  // Change counts reach pg_stat_user_tables when the backend flushes them, which
  // PGlite, having no idle timer, may put off; each read here is preceded by a flush.
  const flushStats = () => db.exec('SELECT pg_stat_force_next_flush()');
  await flushStats();
  await db.exec('ANALYZE');
  const analyzeChanged = async () => {
    await flushStats();
    const { rows } = await db.query<{ name: string }>(CHANGED_TABLES);
    for (const { name } of rows) await db.exec(`ANALYZE ${name}`);
  };
  // One check at a time; a failed one (the database closing) is retried at the next
  // tick, and a query that needs the database reports the problem itself.
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(analyzeChanged).catch(() => undefined);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
