/*
 * bench/ is not a workspace package: third-party modules are resolved from
 * apps/delivery-api, which declares them (pg, pglite).
 */
import { createRequire } from 'node:module';

const appRequire = createRequire(new URL('../../apps/delivery-api/package.json', import.meta.url));

export const pg = appRequire('pg') as typeof import('pg');

/** PGlite, from the app's dependencies (the ESM entry). */
export async function importPGlite(): Promise<typeof import('@electric-sql/pglite')> {
  const { pathToFileURL } = await import('node:url');
  const entry = appRequire.resolve('@electric-sql/pglite').replace(/\.cjs$/, '.js');
  return import(pathToFileURL(entry).href) as Promise<typeof import('@electric-sql/pglite')>;
}
