// Bundles src/main.ts into dist/cpc.js: one ESM file for Node with a shebang. The package's own
// dependencies stay imports (npm installs them); workspace code (@cp/domain's rules) and what it
// uses are bundled in, so the packed tarball installs with `npm i -g` alone. The built host SDK
// (the module and its frame document) is copied beside it for `cpc dev`.
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

await build({
  entryPoints: [join(root, 'src/main.ts')],
  outfile: join(dist, 'cpc.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // Workspace packages resolve to their TypeScript sources, as in the tests: no build of theirs needed.
  conditions: ['source'],
  external: Object.keys(pkg.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]),
  banner: {
    // The shebang, and `require` for bundled CommonJS code that asks for Node's built-ins.
    js: "#!/usr/bin/env node\nimport { createRequire as __cpcCreateRequire } from 'node:module';\nconst require = __cpcCreateRequire(import.meta.url);",
  },
  define: { CPC_VERSION: JSON.stringify(pkg.version) },
  legalComments: 'none',
  // @cp/consume imports zod-openapi only for its type augmentation of zod; nothing of it runs.
  logOverride: { 'ignored-bare-import': 'silent' },
  logLevel: 'warning',
});

const require = createRequire(import.meta.url);
const hostDist = dirname(require.resolve('@component-platform/host/package.json'));
for (const file of ['cp-host.js', 'frame.html']) await copyFile(join(hostDist, 'dist', file), join(dist, file));
