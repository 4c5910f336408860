// Builds the Vue binding: one minified ES module (dist/index.js) that imports Vue and the
// host SDK as externals (a page holds one copy of each), and the type declarations (dist/types).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

rmSync(join(root, 'dist'), { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'src/index.ts')],
  outfile: join(root, 'dist/index.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
  external: ['vue', '@component-platform/host'],
});
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
