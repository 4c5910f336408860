/*
 * bench/ is not a workspace package: third-party modules are resolved from
 * apps/delivery-api, which declares them (autocannon, pglite).
 */
import { createRequire } from 'node:module';

const appRequire = createRequire(new URL('../../apps/delivery-api/package.json', import.meta.url));

export const autocannon = appRequire('autocannon') as typeof import('autocannon');

/** PGlite, from the app's dependencies (the ESM entry). */
export async function importPGlite(): Promise<typeof import('@electric-sql/pglite')> {
  const { pathToFileURL } = await import('node:url');
  const entry = appRequire.resolve('@electric-sql/pglite').replace(/\.cjs$/, '.js');
  return import(pathToFileURL(entry).href) as Promise<typeof import('@electric-sql/pglite')>;
}

/** Express 5, from the app's dependencies (for the Express baseline). */
export async function importExpress(): Promise<typeof import('express')> {
  const { pathToFileURL } = await import('node:url');
  const module = (await import(pathToFileURL(appRequire.resolve('express')).href)) as { default: typeof import('express') };
  return module.default;
}
