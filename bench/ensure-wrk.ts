import { aptInstallCommand, installDebianPackage, thisSystem } from '../packages/browser-testing/src/debian-package.js';

/*
 * Both HTTP benchmarks drive their load with Debian's wrk in its own process: on a
 * 2-core machine a generator inside the Node parent takes a core and compresses
 * every ratio toward 1.
 */

/** Installs wrk from Debian when it is missing and we are root with apt-get; otherwise exits with the command to run. */
export function ensureWrk(bench: string): void {
  if (thisSystem.has('wrk')) return;
  process.stderr.write('wrk is missing: apt-get install -y wrk\n');
  if (installDebianPackage('wrk', thisSystem) && thisSystem.has('wrk')) return;
  process.stderr.write(`${bench} needs wrk (Debian's package): run \`${aptInstallCommand('wrk', thisSystem.isRoot)}\`, then the bench again.\n`);
  process.exit(1);
}
