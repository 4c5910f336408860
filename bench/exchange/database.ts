// bench/ is not a workspace package: workspace sources are imported by path.
import { createDatabase, migrate } from '../../packages/db/src/index.js';

/**
 * A PostgreSQL database of the bench's own, migrated: BENCH_POSTGRES_URL names the server (default: the
 * local one, trust auth). PostgreSQL only, as bench/mcp: PGlite serves one connection at a time, which
 * would measure its lock rather than the exchange.
 */
export async function openBenchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `cp_bench_exchange_${Date.now()}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  await migrate({ databaseUrl: url.toString() });
  return {
    url: url.toString(),
    async drop() {
      const admin = await createDatabase({ databaseUrl: server, poolSize: 1, queryTimeoutMs: 60_000 });
      await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
