import type { PGlite } from '@electric-sql/pglite';
import { createPglite } from '../src/pglite.js';
import { startAutoAnalyze, type AutoAnalyze } from '../src/pglite-autoanalyze.js';

describe('startAutoAnalyze (PGlite has no autovacuum)', () => {
  let db: PGlite;
  let autoAnalyze: AutoAnalyze | undefined;
  beforeEach(async () => {
    db = await createPglite();
  });
  afterEach(async () => {
    await autoAnalyze?.stop();
    await db.close();
  });

  /** The row count the planner knows: -1 until the table is first analyzed. */
  const plannerRows = async (table: string) =>
    (await db.query<{ n: number }>('SELECT reltuples::int AS n FROM pg_class WHERE relname = $1', [table])).rows[0]!.n;
  const eventually = async (check: () => Promise<boolean>) => {
    for (const started = Date.now(); !(await check()); ) {
      if (Date.now() - started > 20_000) throw new Error('not within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('analyzes the tables holding rows at start, then those whose rows changed beyond the threshold', async () => {
    await db.exec('CREATE TABLE busy (n int); CREATE TABLE quiet (n int); CREATE TABLE empty (n int)');
    await db.exec('INSERT INTO busy SELECT generate_series(1, 500); INSERT INTO quiet SELECT generate_series(1, 500)');
    expect(await plannerRows('busy')).toBe(-1);

    autoAnalyze = await startAutoAnalyze(db, 100);
    expect([await plannerRows('busy'), await plannerRows('quiet'), await plannerRows('empty')]).toEqual([500, 500, -1]);

    await db.exec('INSERT INTO busy SELECT generate_series(1, 1000); INSERT INTO quiet SELECT generate_series(1, 10)');
    await eventually(async () => (await plannerRows('busy')) === 1500);
    expect(await plannerRows('quiet')).toBe(500);
  }, 30_000);
});
