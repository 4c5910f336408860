import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const MEMORY = 'memory://';

/**
 * The repository root: the nearest folder at or above `from` that holds
 * pnpm-workspace.yaml. Null outside the repository (e.g. a deployed bundle).
 */
export function findRepositoryRoot(from: string = process.cwd()): string | null {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * Default PGlite folder: `<repository root>/.data/pglite`, so every package and
 * app started from anywhere in the checkout shares one local database; outside
 * a checkout, `.data/pglite` under the working directory.
 */
export function defaultPgliteDataDir(cwd: string = process.cwd()): string {
  return join(findRepositoryRoot(cwd) ?? resolve(cwd), '.data', 'pglite');
}
