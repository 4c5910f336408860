import { randomUUID } from 'node:crypto';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { databaseUrlFor } from '../connection/postgres-url.js';
import { scriptError } from './script-errors.js';

/**
 * The adapter the migration runner uses against PostgreSQL. `@prisma/adapter-pg`
 * splits a script on every ";" and sends the pieces over a pool, so a migration
 * would run outside one transaction and break on a ";" inside a string or a
 * function body. Here each connection is a pool of one (the engine's advisory
 * lock and its script share one session) and a script is sent whole, as one
 * simple-protocol query, which PostgreSQL runs atomically.
 * Shadow databases (only for authoring migrations) are created and dropped here
 * too: the stock adapter drops its shadow database while still connected to it.
 */
export class PostgresMigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';

  constructor(private readonly connectionString: string) {}

  async connect(): Promise<SqlDriverAdapter> {
    return connectWhole(this.connectionString);
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = `prisma_migrate_shadow_db_${randomUUID().replaceAll('-', '')}`;
    await adminQuery(this.connectionString, `CREATE DATABASE "${name}"`);
    return connectWhole(databaseUrlFor(this.connectionString, name), () =>
      adminQuery(this.connectionString, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  }
}

async function connectWhole(connectionString: string, afterDispose?: () => Promise<void>): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPg({ connectionString, max: 1 }, { onPoolError: () => undefined }).connect();
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
    getConnectionInfo: () => adapter.getConnectionInfo(),
    async executeScript(script) {
      try {
        await adapter.underlyingDriver().query(script);
      } catch (error) {
        throw scriptError(error);
      }
    },
    async dispose() {
      await adapter.dispose();
      await afterDispose?.();
    },
  };
}

async function adminQuery(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
