import pg from 'pg';

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

/** Kills the sessions holding a LISTEN (the delivery instances' change feeds), nothing else. */
export const dropListeners = (databaseUrl: string) =>
  admin(databaseUrl, (client, database) =>
    client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'", [database]),
  );
