import type { WrkResult } from './wrk.js';

/** One wrk run against one server, with the CPU it cost. */
export interface Cell extends WrkResult {
  /** µs of the server process (all threads) per response. */
  readonly cpuPerResponse: number;
  /** µs of the deployment's PostgreSQL backends per response. */
  readonly databaseCpuPerResponse: number;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const med = (cells: readonly Cell[], pick: (cell: Cell) => number) => median(cells.map(pick));
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const thousands = (rps: number) => `${(rps / 1000).toFixed(1)}k`;

/** The cached rows: per deployment and payload, medians of the rounds and the median per-round ratio. */
export function resultTable(rows: readonly { deployment: string; payload: string; bytes: number; bare: Cell[]; served: Cell[] }[]): string[] {
  const lines = [
    '| deployment | payload | body bytes | bare req/s | served req/s | ratio | bare p50 / p99 ms | served p50 / p99 ms | CPU µs/response bare / served | PostgreSQL µs/response | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const ratios = row.served.map((cell, i) => cell.rps / row.bare[i]!.rps);
    const errors = [...row.bare, ...row.served].reduce((sum, cell) => sum + cell.errors, 0);
    lines.push(
      `| ${row.deployment} | ${row.payload} | ${row.bytes} | ${thousands(med(row.bare, (c) => c.rps))} | ${thousands(med(row.served, (c) => c.rps))} | ` +
        `**${median(ratios).toFixed(2)}x** [${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}] | ` +
        `${ms(med(row.bare, (c) => c.p50))} / ${ms(med(row.bare, (c) => c.p99))} | ${ms(med(row.served, (c) => c.p50))} / ${ms(med(row.served, (c) => c.p99))} | ` +
        `${med(row.bare, (c) => c.cpuPerResponse).toFixed(1)} / ${med(row.served, (c) => c.cpuPerResponse).toFixed(1)} | ${med(row.served, (c) => c.databaseCpuPerResponse).toFixed(1)} | ${errors} |`,
    );
  }
  return lines;
}

/** The miss rows (caching off): medians of the runs. */
export function missTable(rows: readonly { payload: string; connections: number; runs: Cell[] }[]): string[] {
  const lines = [
    '| cache miss (caching off, PostgreSQL) | connections | req/s | p50 / p99 ms | server CPU µs/response | PostgreSQL µs/response | errors |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const errors = row.runs.reduce((sum, cell) => sum + cell.errors, 0);
    lines.push(
      `| ${row.payload} | ${row.connections} | ${med(row.runs, (c) => c.rps).toFixed(0)} | ${ms(med(row.runs, (c) => c.p50))} / ${ms(med(row.runs, (c) => c.p99))} | ` +
        `${med(row.runs, (c) => c.cpuPerResponse).toFixed(0)} | ${med(row.runs, (c) => c.databaseCpuPerResponse).toFixed(0)} | ${errors} |`,
    );
  }
  return lines;
}
