import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

/*
 * A workspace package as `pnpm pack` writes it (what `pnpm publish` would upload):
 * the tarball, its files and its manifest, for the checks a user's install relies on.
 */

const run = promisify(execFile);

export type Exports = Record<string, string | Record<string, string>>;

export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly types?: string;
  readonly exports: Exports;
  readonly files?: string[];
  readonly sideEffects?: boolean | string[];
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface PackedPackage {
  /** The tarball's path. */
  readonly tarball: string;
  /** Its size in bytes. */
  readonly bytes: number;
  /** The extracted package folder. */
  readonly root: string;
  /** Every file in the tarball, relative to the package folder. */
  readonly files: string[];
  readonly manifest: Manifest;
  /** The manifest in the workspace (with the `source` conditions the monorepo resolves). */
  readonly workspaceManifest: Manifest;
}

/** Packs the built workspace package `name` (its dist/ as the build left it) into `into` and extracts it there. */
export async function pack(name: string, into: string): Promise<PackedPackage> {
  const workspaceDir = dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  const { stdout } = await run('pnpm', ['pack', '--json', '--pack-destination', into], { cwd: workspaceDir });
  const tarball = (JSON.parse(stdout) as { filename: string }).filename;
  const root = join(into, name.replace(/[@/]/g, '_'));
  mkdirSync(root, { recursive: true });
  await run('tar', ['xzf', tarball, '-C', root, '--strip-components=1']);
  const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  return {
    tarball,
    bytes: readFileSync(tarball).length,
    root,
    files: filesUnder(root),
    manifest: readManifest(root),
    workspaceManifest: readManifest(workspaceDir),
  };
}

/** Every file under `dir`, relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Every `exports` entry as its subpath and conditions (a plain string target is the `default` condition). */
export function exportEntries(manifest: Manifest): { subpath: string; conditions: [string, string][] }[] {
  return Object.entries(manifest.exports).map(([subpath, target]) => ({
    subpath,
    conditions: typeof target === 'string' ? [['default', target]] : Object.entries(target),
  }));
}

/** What is wrong with the packed manifest's `exports`; empty when a user's resolver finds every entry. */
export function exportProblems(packed: PackedPackage): string[] {
  const problems: string[] = [];
  const has = (target: string): boolean => packed.files.includes(target.replace(/^\.\//, ''));
  for (const { subpath, conditions } of exportEntries(packed.manifest)) {
    for (const [condition, target] of conditions) {
      if (!has(target)) problems.push(`${subpath}: the ${condition} target ${target} is not in the tarball`);
    }
    const names = conditions.map(([condition]) => condition);
    if (names.includes('types') && names[0] !== 'types') problems.push(`${subpath}: the types condition must come first (resolvers take the first match)`);
    if (names.includes('types') && !conditions.some(([condition, target]) => condition === 'types' && target.endsWith('.d.ts')))
      problems.push(`${subpath}: types is not a .d.ts file`);
  }
  // publishConfig.exports replaces exports on pack: a subpath added to one and not the other is lost to users.
  const packedPaths = Object.keys(packed.manifest.exports).sort().join(', ');
  const workspacePaths = Object.keys(packed.workspaceManifest.exports).sort().join(', ');
  if (packedPaths !== workspacePaths)
    problems.push(`the packed exports (${packedPaths}) differ from the workspace's (${workspacePaths}): keep publishConfig.exports in step with exports`);
  if (packed.manifest.types && !has(packed.manifest.types)) problems.push(`types ${packed.manifest.types} is not in the tarball`);
  return problems;
}

/** The tarball's JavaScript files that define a custom element: what `sideEffects` must list, and nothing else. */
export function filesDefiningElements(packed: PackedPackage): string[] {
  return packed.files
    .filter((file) => file.endsWith('.js') && readFileSync(join(packed.root, file), 'utf8').includes('customElements.define('))
    .map((file) => `./${file}`);
}
