import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { HostHarness } from './host-harness.js';
import { exportEntries, filesUnder, type PackedPackage } from './packed-package.js';

/*
 * A user's app outside the workspace: a fixture project (test/host/consumers/<name>)
 * copied into a temporary folder beside the packed tarballs, installed with npm from
 * the registry as a user would, type-checked, built with Vite, and its dist/ served
 * by the host page server.
 */

const run = promisify(execFile);
const FIXTURES = fileURLToPath(new URL('../consumers/', import.meta.url));
const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

// Run from a pnpm script, the environment holds pnpm's settings for the workspace as npm_* variables (its own
// config file among them) and jest's NODE_OPTIONS: npm gets only those that say how to reach the registry.
const REACH = /^npm_config_(registry|cafile|ca|proxy|https_proxy|noproxy|strict_ssl|cache)$/i;
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => (!/^npm_/i.test(name) || REACH.test(name)) && name !== 'NODE_OPTIONS'));

async function step(what: string, command: string, args: string[], cwd: string, timeoutMs = 180_000): Promise<void> {
  try {
    await run(command, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${what} failed (${command} ${args.join(' ')} in ${cwd}):\n${`${stdout}\n${stderr}`.trim().slice(-4000)}`);
  }
}

/** Fails with what to do when npm cannot reach its registry, before any install waits on it. */
export async function expectRegistryReachable(cwd: string): Promise<void> {
  try {
    await run('npm', ['ping', '--fetch-timeout=15000', '--fetch-retries=0'], { cwd, env, timeout: 30_000 });
  } catch (error) {
    throw new Error(
      'The npm registry is unreachable (npm ping failed): this test installs React, Vue, Vite and TypeScript from it ' +
        `into apps outside the workspace. Check the network and \`npm config get registry\`.\n${String((error as { stderr?: string }).stderr ?? error).slice(0, 500)}`,
    );
  }
}

/** The file name the fixtures' package.json files give each tarball (`file:../component-platform-host.tgz`). */
const tarballName = (packed: PackedPackage): string => `${packed.manifest.name.slice(1).replace('/', '-')}.tgz`;

/**
 * Copies the fixture `name` into `work`, the tarballs beside it, and a module importing
 * every entry point of `packages` that declares types: the type check then resolves each.
 */
export function createConsumer(name: string, work: string, packages: PackedPackage[]): string {
  const dir = join(work, name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  for (const packed of packages) copyFileSync(packed.tarball, join(work, tarballName(packed)));
  const specifiers = packages.flatMap((packed) =>
    exportEntries(packed.manifest)
      .filter(({ conditions }) => conditions.some(([condition]) => condition === 'types'))
      .map(({ subpath }) => packed.manifest.name + subpath.slice(1)),
  );
  writeFileSync(
    join(dir, 'src/package-entries.ts'),
    `${specifiers.map((specifier, i) => `import type * as entry${i} from '${specifier}';`).join('\n')}\n` +
      `export type Entries = [${specifiers.map((_, i) => `typeof entry${i}`).join(', ')}];\n`,
  );
  return dir;
}

export const npmInstall = (dir: string): Promise<void> => step('npm install', 'npm', ['install', '--no-audit', '--no-fund'], dir);

/** `tsc --noEmit` (strict, the fixture's tsconfig), then `vite build`; returns the built files, relative to dist/. */
export async function typeCheckAndBuild(dir: string): Promise<string[]> {
  await step('The type check', join(dir, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'], dir);
  await step('The Vite build', join(dir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], dir);
  return filesUnder(join(dir, 'dist'));
}

/** Serves the app's dist/ at `/<name>/` of the host origin; returns its index.html URL. */
export function serveBuilt(harness: HostHarness, name: string, dir: string): string {
  const dist = join(dir, 'dist');
  for (const file of filesUnder(dist)) {
    const contentType = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    harness.asset(`/${name}/${file}`, { body: readFileSync(join(dist, file), 'utf8'), contentType });
  }
  return `${harness.hostOrigin}/${name}/index.html`;
}
