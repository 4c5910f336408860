// Builds the browser SDK: one minified ES module (dist/cp-host.js), the React
// binding (dist/react.js, importing React and the SDK file as externals), and
// the type declarations (dist/types).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const common = { bundle: true, format: 'esm', minify: true, target: ['es2020', 'chrome90', 'firefox90', 'safari15'], legalComments: 'none', logLevel: 'warning' };

rmSync(join(root, 'dist'), { recursive: true, force: true });
await build({ ...common, entryPoints: [join(root, 'src/index.ts')], outfile: join(root, 'dist/cp-host.js') });
await build({
  ...common,
  entryPoints: [join(root, 'src/react.ts')],
  outfile: join(root, 'dist/react.js'),
  external: ['react', './index.js'],
  // The binding uses the SDK file beside it, so a page holds one copy (one custom element registry entry).
  plugins: [{ name: 'sdk-external', setup: (b) => b.onResolve({ filter: /^\.\/index\.js$/ }, () => ({ path: './cp-host.js', external: true })) }],
});
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
