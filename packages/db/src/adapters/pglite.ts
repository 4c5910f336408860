import type { PGlite } from '@electric-sql/pglite';
import type {
  ConnectionInfo,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { createPglite } from '../pglite.js';
import { withWholeScripts } from './whole-scripts.js';

/**
 * `pglite-prisma-adapter` with two fixes that matter for migrations:
 * - its `executeScript` starts `exec` without awaiting it, so a failing
 *   migration would be recorded as applied and its error would surface as an
 *   unhandled rejection; here the script is awaited and its error reported;
 * - its shadow database (used when authoring a migration) is a new in-memory
 *   PGlite that is never closed; here it is closed when the engine disposes it.
 */
export class PGliteAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = 'pglite-prisma-adapter';
  private readonly inner: PrismaPGlite;

  constructor(private readonly db: PGlite) {
    this.inner = new PrismaPGlite(db);
  }

  async connect(): Promise<SqlDriverAdapter> {
    return withAwaitedScripts(await this.inner.connect(), this.db);
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const shadow = await createPglite();
    const adapter = await new PrismaPGlite(shadow).connect();
    return withAwaitedScripts(adapter, shadow, () => shadow.close());
  }
}

function withAwaitedScripts(
  adapter: SqlDriverAdapter,
  db: PGlite,
  onDispose?: () => Promise<void>,
): SqlDriverAdapter {
  const connectionInfo: ConnectionInfo = adapter.getConnectionInfo?.() ?? {
    supportsRelationJoins: true,
  };
  return withWholeScripts(adapter, {
    runScript: (script) => db.exec(script),
    connectionInfo: () => connectionInfo,
    async dispose() {
      await adapter.dispose();
      await onDispose?.();
    },
  });
}
