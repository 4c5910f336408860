import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The contrib extensions our migrations create (the components' name search index).
 * PGlite loads an extension's library only when it is passed at open, and a database
 * that holds the index cannot be queried, written or migrated without it.
 */
export const pgliteExtensions = { pg_trgm, btree_gin };

/** Opens PGlite with `pgliteExtensions`: every PGlite that holds our schema must be opened here. */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: pgliteExtensions });
}
