#!/usr/bin/env node
// Runs `prisma generate` offline. The Prisma CLI insists on locating a native
// schema-engine binary even for `generate`, which never runs it, and would try
// to download one (impossible on our machines). Pointing
// PRISMA_SCHEMA_ENGINE_BINARY at an existing file satisfies that check; we use
// the WASM schema engine file so that nothing could ever execute it by mistake.
// Migrations use that WASM engine through src/migrations (see README.md).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(join(packageDir, 'package.json'));
const prismaCli = join(dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
const wasmEngine = join(
  dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
  'schema_engine_bg.wasm',
);

const result = spawnSync(
  process.execPath,
  [prismaCli, 'generate', '--schema', 'prisma/schema.prisma', '--no-hints'],
  {
    cwd: packageDir,
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: wasmEngine,
      // No checksum downloads for engines we do not use.
      PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: '1',
      // No telemetry or update check: both are network calls.
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  },
);

if (result.error) throw result.error;
process.exit(result.status ?? 1);
