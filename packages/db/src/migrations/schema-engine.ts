import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';

/*
 * Prisma's own schema engine (the one behind `prisma migrate`), compiled to WASM.
 * The npm package is built for bundlers (its entry imports the .wasm file as an
 * ES module), so we compile the .wasm ourselves and hand the instance to the
 * JS glue. The glue keeps the instance in a module variable: load it once per
 * process (per module registry under jest).
 */

const require = createRequire(import.meta.url);

// The WebAssembly global, typed for the few calls we make (our lib setting has no DOM types).
interface WasmImport {
  module: string;
  name: string;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<{ exports: object }>;
  Module: { imports(module: object): WasmImport[] };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let loading: Promise<void> | undefined;

// A Rust panic inside the engine surfaces in JS as "RuntimeError: unreachable";
// the engine reports the real reason to this global registry first.
let lastPanic: string | undefined;
const registryHost = globalThis as {
  PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void };
};
registryHost.PRISMA_WASM_PANIC_REGISTRY ??= {
  set_message: (message) => {
    lastPanic = message;
  },
};

/**
 * The engine arms timers for its timeouts (e.g. 10 s for the migration advisory
 * lock) and never clears them; with the stock import they keep Node alive after
 * the work is done. Unref'd timers still fire while something else runs.
 */
function unrefSetTimeout(handler: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(handler, ms >>> 0);
  timer.unref();
  return timer;
}

/** Where the engine's .wasm file lives (next to its JS glue). */
export function schemaEngineWasmPath(): string {
  return join(
    dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
    'schema_engine_bg.wasm',
  );
}

function loadWasm(): Promise<void> {
  loading ??= (async () => {
    const module = await wasmApi.compile(await readFile(schemaEngineWasmPath()));
    // Every import of the module comes from its JS glue ("./schema_engine_bg.js").
    const glue = bindings as unknown as Record<string, unknown>;
    const imports: Record<string, Record<string, unknown>> = {};
    for (const { module: from, name } of wasmApi.Module.imports(module)) {
      const value = name.startsWith('__wbg_setTimeout_') ? unrefSetTimeout : glue[name];
      if (value === undefined)
        throw new Error(`schema engine WASM needs "${from}".${name}, which its JS glue lacks`);
      (imports[from] ??= {})[name] = value;
    }
    const instance = await wasmApi.instantiate(module, imports);
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  })();
  loading.catch(() => {
    loading = undefined; // a failed load may be retried
  });
  return loading;
}

/**
 * A schema engine talking to the database through `adapterFactory` (main
 * database through `connect()`, shadow database through `connectToShadowDb()`).
 * Call `engine.free()` when done.
 */
export async function openSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  options: { schema?: { path: string; content: string }; log?: (line: string) => void } = {},
): Promise<SchemaEngine> {
  await loadWasm();
  const bound = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  const datamodels: [string, string][] | undefined = options.schema
    ? [[options.schema.path, options.schema.content]]
    : undefined;
  const log = options.log ?? (() => undefined);
  try {
    return await bindings.SchemaEngine.new({ datamodels }, log, bound);
  } catch (error) {
    throw engineError(error);
  }
}

/**
 * The engine rejects with wasm-bindgen errors whose message ends in a Rust span
 * trace ("   0: schema_engine_wasm::..."); keep the part a person needs (code and
 * reason) and attach the original as `cause`.
 */
export function engineError(error: unknown): Error {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const panic = lastPanic ?? (text.startsWith('panicked at') ? text : undefined);
  if (panic !== undefined) {
    lastPanic = undefined;
    // The instance is not safe to use after a panic, and it cannot be swapped for
    // a new one while its pending callbacks exist: the process should end.
    return new Error(`Prisma schema engine crashed (restart the process): ${panic}`, {
      cause: error,
    });
  }
  const reason = text
    .split('\n')
    .filter((line) => !/^\s+(\d+: |at |with )/.test(line))
    .join('\n')
    .trim();
  return new Error(
    `Prisma schema engine${typeof code === 'string' ? ` (${code})` : ''}: ${reason}`,
    { cause: error },
  );
}
