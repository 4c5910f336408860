#!/usr/bin/env node
// Slims a `pnpm deploy --prod` folder before it is copied into a runtime image.
//
//   node docker/prune-deploy.mjs /prod/<app>
//
// Why: `@prisma/client` declares the Prisma CLI (`prisma`) and `typescript` as
// optional peer dependencies. Because the workspace has both (devDependencies of
// packages/db), the lockfile resolves those peers and `pnpm deploy --prod` copies
// them, with the CLI's own tree (Prisma Studio, effect, react, ...): about 150 MB
// that nothing loads at run time. This script
//   1. walks the dependency graph from the app's own node_modules, not following
//      edges to `prisma` or `typescript`, and deletes every package in
//      node_modules/.pnpm that the walk did not reach;
//   2. deletes the query compilers of the databases we do not use from
//      @prisma/client/runtime (the generated client imports the postgresql one);
//   3. deletes source maps and TypeScript declarations, and tests and sources of
//      the workspace packages (the deployed code is their dist/).
// It prints what it removed, and fails if the result lacks a file the services need.
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2];
if (!root || !existsSync(join(root, 'package.json'))) {
  console.error('usage: node prune-deploy.mjs <pnpm deploy output folder>');
  process.exit(2);
}
const store = join(root, 'node_modules', '.pnpm');
const SKIPPED_EDGES = new Set(['prisma', 'typescript']);
const KEPT_PROVIDER = 'postgresql';

/** Package folders directly under a node_modules folder (scoped ones included). */
function entries(nodeModules) {
  if (!existsSync(nodeModules)) return [];
  const found = [];
  for (const name of readdirSync(nodeModules)) {
    if (name.startsWith('.')) continue;
    const path = join(nodeModules, name);
    if (name.startsWith('@')) {
      for (const scoped of readdirSync(path)) found.push([`${name}/${scoped}`, join(path, scoped)]);
    } else found.push([name, path]);
  }
  return found;
}

/** The .pnpm/<entry> a real package path lives in, or null (the app itself). */
function storeEntry(realPath) {
  const rel = relative(store, realPath);
  return rel.startsWith('..') ? null : rel.split('/')[0];
}

// 1. Reachability over the symlinked graph.
const reached = new Set();
const queue = [join(root, 'node_modules')];
while (queue.length > 0) {
  const nodeModules = queue.pop();
  for (const [name, path] of entries(nodeModules)) {
    if (SKIPPED_EDGES.has(name)) continue;
    let real;
    try {
      real = realpathSync(path);
    } catch {
      continue; // a dangling link
    }
    const entry = storeEntry(real);
    if (entry === null || reached.has(entry)) continue;
    reached.add(entry);
    // A package's dependencies are its siblings in .pnpm/<entry>/node_modules,
    // and, for a workspace package copied there, its own node_modules.
    queue.push(join(store, entry, 'node_modules'));
    if (existsSync(join(real, 'node_modules'))) queue.push(join(real, 'node_modules'));
  }
}

let removed = 0;
const sizeOf = (path) => {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
};
const remove = (path) => {
  removed += sizeOf(path);
  rmSync(path, { recursive: true, force: true });
};

const unreached = readdirSync(store).filter(
  (entry) => entry !== 'node_modules' && !entry.startsWith('.') && !reached.has(entry),
);
for (const entry of unreached) remove(join(store, entry));
// .pnpm/node_modules holds hoisted links to every package: drop the dangling ones.
for (const [, path] of entries(join(store, 'node_modules'))) {
  if (!existsSync(path)) rmSync(path, { force: true });
}

// 2. Query compilers of other databases.
for (const entry of readdirSync(store).filter((name) => name.startsWith('@prisma+client@'))) {
  const runtime = join(store, entry, 'node_modules', '@prisma', 'client', 'runtime');
  if (!existsSync(runtime)) continue;
  for (const file of readdirSync(runtime)) {
    const match = /^query_compiler_[a-z]+_bg\.([a-z]+)\./.exec(file);
    if (match && match[1] !== KEPT_PROVIDER) remove(join(runtime, file));
  }
}

// 3. Maps, declarations, workspace sources and tests.
const STRIPPED_FILE = /\.(map|d\.ts|d\.mts|d\.cts)$/;
function strip(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) strip(path);
    else if (STRIPPED_FILE.test(name)) remove(path);
  }
}
strip(root);
const workspacePackages = [
  root,
  ...readdirSync(store)
    .map((name) => [name, /^(@cp|@component-platform)\+([^@]+)@/.exec(name)])
    .filter(([, match]) => match !== null)
    .map(([name, [, scope, scopedName]]) => join(store, name, 'node_modules', scope, scopedName)),
];
for (const dir of workspacePackages) {
  for (const name of ['src', 'test', 'scripts', '.turbo']) {
    const path = join(dir, name);
    if (existsSync(path) && statSync(path).isDirectory()) remove(path);
  }
}

console.log(
  `prune-deploy: kept ${reached.size} packages, removed ${unreached.length} unreachable (${unreached.slice(0, 12).join(', ')}${unreached.length > 12 ? ', ...' : ''}); ${(removed / 1048576).toFixed(1)} MiB freed`,
);

// What the services need at run time must still be there.
const dbFiles = (dir) => [
  join(dir, 'dist', 'cli', 'migrate.js'),
  join(dir, 'prisma', 'migrations', 'migration_lock.toml'),
  join(dir, 'prisma', 'schema.prisma'),
];
const rootName = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
const required = rootName === '@cp/db' ? dbFiles(root) : [join(root, 'dist', 'main.js')];
// The delivery API serves the built host SDK and its frame document (`@component-platform/host/dist/`, read at start);
// the worker writes the frame document into static exports.
const hostDist = (file) => join(root, 'node_modules', '@component-platform', 'host', 'dist', file);
if (rootName === '@cp/delivery-api') required.push(hostDist('cp-host.js'), hostDist('frame.html'));
if (rootName === '@cp/worker') required.push(hostDist('frame.html'));
// The MCP server reads its MCP Apps view at start (apps/mcp-server/views/, outside the pruned src/).
if (rootName === '@cp/mcp-server') required.push(join(root, 'views', 'preview-v1.html'));
for (const dir of workspacePackages.slice(1))
  if (dir.endsWith('/db')) required.push(...dbFiles(dir));
const missing = required.filter((path) => !existsSync(path));
if (missing.length > 0) {
  console.error(`prune-deploy: missing after pruning:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
