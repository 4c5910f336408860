import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/*
 * CPU time of processes from /proc/<pid>/stat (utime + stime, every thread):
 * throughput on a shared machine moves with other people's load, CPU per
 * response much less.
 */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of one process, in µs; 0 once it is gone. */
export function processCpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces (inside parentheses).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** Starts a stopwatch over some processes; `stop()` gives the µs they spent meanwhile (pids read at both ends). */
export async function cpuStopwatch(pids: () => Promise<number[]>): Promise<{ stop(): Promise<number> }> {
  const before = new Map((await pids()).map((pid) => [pid, processCpuMicros(pid)]));
  return {
    async stop() {
      let spent = 0;
      // A process that started meanwhile counts from 0.
      for (const pid of await pids()) spent += processCpuMicros(pid) - (before.get(pid) ?? 0);
      return Math.max(0, spent);
    },
  };
}
