/**
 * Delivery benchmark while a rollout is running (docs/experiences.md "Delivery"): the delivery
 * API alone on PostgreSQL (postgres-deployment.ts, seeded with `--rollout`: a component whose
 * v2 is rolled out to 50% of prod), under `wrk -t1 -c50 --latency` in its own process. Each
 * round measures, one after the other, the 1.3 KB component without an experience
 * (`/consume?id=&env=prod`, the reference), then the rolled-out component's fallback (with its
 * descriptor) and its candidate arm (`&arm=v2&rev=<revision>`), both the same size. A row's
 * ratio is the median of its per-round ratios to the reference's req/s; server CPU per
 * response from /proc.
 *
 * Run (from the repo root):  pnpm --filter @cp/delivery-api bench:rollout
 * Env: BENCH_ROUNDS (6), BENCH_DURATION (s per cell, 8), BENCH_POSTGRES_URL
 * (postgresql://postgres@127.0.0.1:5432/postgres).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureWrk } from '../ensure-wrk.js';
import { repoPath } from './deployment.js';
import { startPostgresDeployment } from './postgres-deployment.js';
import { cpuStopwatch } from './process-cpu.js';
import { type Cell, median } from './report.js';
import { runWrk } from './wrk.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = 50;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const log = (line: string) => process.stderr.write(`${line}\n`);

ensureWrk('bench/delivery');
log('starting the delivery API alone on PostgreSQL, with a rollout running…');
const deployment = await startPostgresDeployment({ serverUrl: POSTGRES_URL, rollout: true });
try {
  const rolledOut = `/consume?id=${deployment.componentIds.rollout}&env=prod`;
  const fallback = await fetch(deployment.url + rolledOut);
  const { assignment } = (await fallback.json()) as { assignment?: { revision: number; segments: { arms: { arm: string }[] }[] } };
  const candidate = assignment?.segments[0]?.arms.find((entry) => entry.arm !== 'release')?.arm;
  if (!assignment || !candidate) throw new Error(`the rolled-out component's fallback carries no rollout descriptor: ${JSON.stringify(assignment)}`);
  const scenarios = [
    { name: 'no experience (reference)', path: deployment.paths.small },
    { name: 'rollout: fallback (with descriptor)', path: rolledOut },
    { name: `rollout: arm ${candidate}`, path: `${rolledOut}&arm=${candidate}&rev=${assignment.revision}` },
  ];
  for (const scenario of scenarios) {
    const res = await fetch(deployment.url + scenario.path);
    if (!res.ok) throw new Error(`${scenario.path}: ${res.status}`);
    log(`${scenario.name}: ${res.headers.get('cp-arm') ?? 'no Cp-Arm'}, ${(await res.arrayBuffer()).byteLength} bytes`);
  }

  const measure = async (path: string, seconds: number): Promise<Cell> => {
    const server = await cpuStopwatch(async () => [deployment.serverPid]);
    const database = await cpuStopwatch(deployment.databasePids);
    const result = await runWrk(deployment.url + path, { connections: CONNECTIONS, seconds });
    const responses = Math.max(1, result.requests);
    return { ...result, cpuPerResponse: (await server.stop()) / responses, databaseCpuPerResponse: (await database.stop()) / responses };
  };
  log('warming up…');
  for (const scenario of scenarios) await measure(scenario.path, Math.min(2, SECONDS));
  const cells = scenarios.map(() => [] as Cell[]);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, scenario] of scenarios.entries()) cells[i]!.push(await measure(scenario.path, SECONDS));
    log(`round ${round}/${ROUNDS}: ${cells.map((c) => c.at(-1)!.rps.toFixed(0)).join(' / ')} req/s`);
  }

  const reference = cells[0]!;
  const lines = [
    `Node ${process.version}, wrk -t1 -c${CONNECTIONS} --latency, ${ROUNDS} rounds of ${SECONDS} s per cell, the delivery API alone on PostgreSQL; ratio: median of per-round ratios to the reference [lowest-highest].`,
    '',
    '| scenario | req/s | ratio | p50 / p99 ms | server CPU µs/response | PostgreSQL µs/response | errors |',
    '|---|---|---|---|---|---|---|',
    ...scenarios.map((scenario, i) => {
      const rows = cells[i]!;
      const ratios = rows.map((cell, round) => cell.rps / reference[round]!.rps);
      const med = (pick: (cell: Cell) => number) => median(rows.map(pick));
      return (
        `| ${scenario.name} | ${med((c) => c.rps).toFixed(0)} | **${median(ratios).toFixed(2)}x** [${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}] | ` +
        `${med((c) => c.p50).toFixed(2)} / ${med((c) => c.p99).toFixed(2)} | ${med((c) => c.cpuPerResponse).toFixed(1)} | ${med((c) => c.databaseCpuPerResponse).toFixed(1)} | ` +
        `${rows.reduce((sum, cell) => sum + cell.errors, 0)} |`
      );
    }),
  ];
  const report = lines.join('\n');
  process.stdout.write(`${report}\n`);
  const resultsDir = repoPath('bench/results/');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `delivery-rollout-${new Date().toISOString().replaceAll(':', '-')}.md`), `${report}\n`);
} finally {
  await deployment.stop();
}
