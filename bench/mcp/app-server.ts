/**
 * Child process of run.ts: the app under test (bench-app.ts), seeded with one
 * organization of BENCH_COMPONENTS (default 10,000) components and one of each of
 * BENCH_FILTER_SIZES (comma-separated, default 1000,100000). Prints one JSON
 * line (BenchTarget) when ready; stops on SIGTERM. With BENCH_CPU_PROF_DIR, writes
 * a V8 CPU profile of the serving phase only (not the seeding) there on stop
 * (`node bench/mcp/profile-summary.ts <file>`, or Chrome DevTools).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { startBenchApp } from './bench-app.js';

const filterSizes = (process.env.BENCH_FILTER_SIZES ?? '1000,100000').split(',').filter(Boolean).map(Number);
const app = await startBenchApp(Number(process.env.BENCH_COMPONENTS ?? 10_000), filterSizes);

const profileDir = process.env.BENCH_CPU_PROF_DIR;
const session = profileDir ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
process.stdout.write(`${JSON.stringify(app.target)}\n`);

process.on('SIGTERM', () => {
  void (async () => {
    if (session && profileDir) {
      const { profile } = await session.post('Profiler.stop');
      await mkdir(profileDir, { recursive: true });
      await writeFile(join(profileDir, `mcp-app-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    await app.close();
    process.exit(0);
  })();
});
