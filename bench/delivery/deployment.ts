import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One way /consume is run, with what the bench needs to load and measure it. */
export interface Deployment {
  readonly name: string;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Cached GET /consume paths (with the query) of the two components. */
  readonly paths: { readonly small: string; readonly large: string };
  /** The Node process that serves it. */
  readonly serverPid: number;
  /** PostgreSQL backends serving it (none for PGlite, which runs inside the server process). */
  databasePids(): Promise<number[]>;
  stop(): Promise<void>;
}

export const repoPath = (relative: string): string => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

/** How every TypeScript process of the bench starts (`--import tsx` resolves from the app's folder). */
export const TSX = ['--conditions=source', '--import', 'tsx'];

/** `--cpu-prof` into `<dir>/<name>/` when profiling (BENCH_CPU_PROF_DIR), else nothing. One folder per process: its threads write one profile each. */
export const profileArgs = (dir: string | undefined, name: string): string[] =>
  dir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(dir, name)}`];

/** The environment without settings of the developer's own services (a bench deployment brings its own). */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name === 'DATABASE_URL' || name.startsWith('S3_') || name.startsWith('DELIVERY_') || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  return env;
}
