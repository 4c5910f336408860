import pg from 'pg';
import { CHANGE_FEED_APPLICATION_NAME } from '../../src/changes/postgres-change-feed.js';

/** Administration of this test file's PostgreSQL database, through the server's `postgres` database. */
async function admin<T>(databaseUrl: string, work: (client: pg.Client, database: string) => Promise<T>): Promise<T> {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client, database);
  } finally {
    await client.end();
  }
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The database goes away for its clients: existing sessions are killed and new ones refused. */
export const takeDatabaseDown = (databaseUrl: string) =>
  admin(databaseUrl, async (client, database) => {
    await client.query(`ALTER DATABASE ${ident(database)} ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  });

export const bringDatabaseBack = (databaseUrl: string) =>
  admin(databaseUrl, (client, database) => client.query(`ALTER DATABASE ${ident(database)} ALLOW_CONNECTIONS true`));

/**
 * Kills the delivery instances' change-feed sessions, nothing else. Found by name: the
 * last query of a listening session is usually the feed's heartbeat, not its LISTEN.
 */
export const dropListeners = async (databaseUrl: string) => {
  const dropped = await admin(databaseUrl, (client, database) =>
    client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [database, CHANGE_FEED_APPLICATION_NAME]),
  );
  if (dropped.rowCount === 0) throw new Error('no change-feed session to drop: is an instance listening?');
};
