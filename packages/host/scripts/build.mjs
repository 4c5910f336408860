// Builds the browser SDK: the frame document (dist/frame.html, its script bundled in),
// one minified ES module that knows the frame document's hashed name (dist/cp-host.js),
// the React binding (dist/react.js, importing React and the SDK file as externals), the
// server-side include for Node (dist/server.js, importing parse5 and the SDK file's
// CpError), and the type declarations (dist/types).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from '@swc/core';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  bundle: true,
  minify: true,
  target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
  // Chromium before 91 fails only an optional call with a spread argument before the last, which the SDK never makes:
  // its optional chains stay as written instead of being lowered.
  supported: { 'optional-chain': true },
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(join(root, 'dist'), { recursive: true, force: true });
mkdirSync(join(root, 'dist'));
const bootstrap = await build({ ...common, entryPoints: [join(root, 'src/frame/bootstrap.ts')], format: 'iife', write: false });
const frame = `<!doctype html><meta charset="utf-8"><script>${bootstrap.outputFiles[0].text.trim()}</script>`;
writeFileSync(join(root, 'dist/frame.html'), frame);
// The delivery API names the file by the same hash (apps/delivery-api host-sdk-file.ts).
const frameFile = `v1.${createHash('sha256').update(frame).digest('hex').slice(0, 16)}.html`;
const sdk = await build({
  ...common,
  // Bundled by esbuild, minified by swc: its compressor makes the file that every host page loads the smaller.
  minify: false,
  format: 'esm',
  entryPoints: [join(root, 'src/index.ts')],
  write: false,
  // Internal fields only (never an option, an event detail, a DOM or wire name): renamed.
  mangleProps: /^(rendered|box|pick|missing|fresh|onRetry|etag|cached|alive|bind|files|setReceive|receive|send|root|dispose|link|frame|port|watch)$/,
  define: { CP_FRAME_FILE: JSON.stringify(frameFile), CP_SDK_VERSION: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version) },
});
const minified = await minify(sdk.outputFiles[0].text, { module: true, ecma: 2020, compress: { passes: 3 }, mangle: { toplevel: true } });
writeFileSync(join(root, 'dist/cp-host.js'), minified.code);
await build({
  ...common,
  format: 'esm',
  entryPoints: [join(root, 'src/react.ts')],
  outfile: join(root, 'dist/react.js'),
  external: ['react', './index.js'],
  // The binding uses the SDK file beside it, so a page holds one copy (one custom element registry entry).
  plugins: [{ name: 'sdk-external', setup: (b) => b.onResolve({ filter: /^\.\/index\.js$/ }, () => ({ path: './cp-host.js', external: true })) }],
});
await build({
  entryPoints: [join(root, 'src/server/index.ts')],
  outfile: join(root, 'dist/server.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  external: ['parse5'],
  // One CpError class for both entry points, so `instanceof` holds whichever the server imports it from.
  plugins: [{ name: 'sdk-errors', setup: (b) => b.onResolve({ filter: /^\.\.?\/errors\.js$/ }, () => ({ path: './cp-host.js', external: true })) }],
});
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
