import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/*
 * CPU time spent by processes (Linux /proc; elsewhere null). The machines are
 * shared and noisy: throughput moves with other people's load, CPU per request
 * much less, so the table shows both.
 */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces, inside parentheses). */
function statFields(pid: number | 'self'): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const ms = (ticks: string | undefined, more: string | undefined): number => ((Number(ticks) + Number(more)) * 1000) / ticksPerSecond;

/** utime + stime of one process, in ms; 0 when it is gone. */
function processCpuMs(pid: number): number {
  try {
    const fields = statFields(pid);
    return ms(fields[11], fields[12]);
  } catch {
    return 0;
  }
}

/** cutime + cstime of this process: its children that have exited (the load generator runs), in ms. */
function finishedChildrenCpuMs(): number {
  try {
    const fields = statFields('self');
    return ms(fields[13], fields[14]);
  } catch {
    return 0;
  }
}

/** Every PostgreSQL process on this machine (the server is shared: an approximation). */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

export const canMeasureCpu = (): boolean => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
};

/**
 * Starts a CPU stopwatch over `pid`, the PostgreSQL processes and this process's children
 * that exit meanwhile; `stop()` gives ms spent by each.
 */
export function cpuStopwatch(pid: number): { stop(): { serverMs: number; postgresMs: number; generatorMs: number } } {
  const server = processCpuMs(pid);
  const pg = new Map(postgresPids().map((p) => [p, processCpuMs(p)]));
  const generator = finishedChildrenCpuMs();
  return {
    stop() {
      let postgresMs = 0;
      // Backends that started during the window count from 0.
      for (const p of postgresPids()) postgresMs += processCpuMs(p) - (pg.get(p) ?? 0);
      return { serverMs: processCpuMs(pid) - server, postgresMs: Math.max(0, postgresMs), generatorMs: finishedChildrenCpuMs() - generator };
    },
  };
}
