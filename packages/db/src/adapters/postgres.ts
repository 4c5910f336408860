import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { PrismaPg } from '@prisma/adapter-pg';
import { withWholeScripts } from './whole-scripts.js';

/**
 * The adapter the migration runner uses against PostgreSQL. `@prisma/adapter-pg`
 * splits a script on every ";" and sends the pieces over a pool, so a migration
 * would run outside one transaction and break on a ";" inside a string or a
 * function body. Here each connection is a pool of one (the engine's advisory
 * lock and its script share one session) and a script is sent whole, as one
 * simple-protocol query, which PostgreSQL runs atomically.
 * No shadow database: only authoring a migration needs one, and the engine cannot
 * describe a schema through adapter-pg (it does not map PostgreSQL's "char" type),
 * so `createMigration` replays migrations in PGlite instead.
 */
export class PostgresMigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';

  constructor(private readonly connectionString: string) {}

  async connect(): Promise<SqlDriverAdapter> {
    return connectWhole(this.connectionString);
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return Promise.reject(
      new Error('migrations are authored against PGlite (createMigration), not PostgreSQL'),
    );
  }
}

async function connectWhole(connectionString: string): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPg(
    { connectionString, max: 1 },
    { onPoolError: () => undefined },
  ).connect();
  return withWholeScripts(adapter, {
    runScript: (script) => adapter.underlyingDriver().query(script),
    connectionInfo: () => adapter.getConnectionInfo(),
    dispose: () => adapter.dispose(),
  });
}
