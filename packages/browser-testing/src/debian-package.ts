import { spawnSync } from 'node:child_process';

/** What installing a missing tool needs from the machine; tests replace it. */
export interface System {
  readonly isRoot: boolean;
  /** True when the command can be run (found on PATH). */
  has(command: string): boolean;
  /** Runs a command to completion; true when it exited 0. */
  run(command: string, args: readonly string[]): boolean;
}

/** The line a user who cannot install it gets: the exact command, with sudo when they are not root. */
export function aptInstallCommand(pkg: string, isRoot: boolean): string {
  const sudo = isRoot ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}apt-get install -y ${pkg}`;
}

/**
 * Installs a Debian package when this user can (root with apt-get). A fresh
 * machine may have no package lists yet: they are refreshed once and the install
 * retried. False when it could not be installed.
 */
export function installDebianPackage(pkg: string, system: System): boolean {
  if (!system.isRoot || !system.has('apt-get')) return false;
  const install = () => system.run('apt-get', ['install', '-y', '-qq', pkg]);
  return install() || (system.run('apt-get', ['update', '-qq']) && install());
}

/** This machine. */
export const thisSystem: System = {
  isRoot: process.getuid?.() === 0,
  has: (command) => spawnSync('sh', ['-c', 'command -v "$1"', 'sh', command], { stdio: 'ignore' }).status === 0,
  run: (command, args) => spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0,
};
