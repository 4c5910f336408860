import { spawnSync } from 'node:child_process';

/*
 * Both HTTP benchmarks drive their load with Debian's wrk in its own process: on a
 * 2-core machine a generator inside the Node parent takes a core and compresses
 * every ratio toward 1.
 */
const runs = (command: string, args: string[]): boolean => spawnSync(command, args, { stdio: 'ignore' }).error === undefined;

/** Installs wrk from Debian when it is missing and we are root with apt-get; otherwise exits with the command to run. */
export function ensureWrk(bench: string): void {
  if (runs('wrk', ['-v'])) return;
  if (process.getuid?.() === 0 && runs('apt-get', ['--version'])) {
    const aptGet = (...args: string[]): boolean =>
      spawnSync('apt-get', args, { stdio: ['ignore', 2, 2], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
    process.stderr.write('wrk is missing: apt-get install -y wrk\n');
    // A fresh machine may have no package lists yet.
    if (!aptGet('install', '-y', 'wrk')) aptGet('update') && aptGet('install', '-y', 'wrk');
    if (runs('wrk', ['-v'])) return;
  }
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  process.stderr.write(`${bench} needs wrk (Debian's package): run \`${sudo}apt-get update && ${sudo}apt-get install -y wrk\`, then the bench again.\n`);
  process.exit(1);
}
