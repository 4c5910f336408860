import pg from 'pg';
import { connectionError, databaseName, databaseUrlFor, quoteIdent } from './postgres-url.js';

/**
 * Makes sure the database named in the connection string exists, creating it
 * through the server's `postgres` database when it does not (what
 * `prisma migrate deploy` does). Returns true when it created it.
 * Throws a readable error when the server cannot be reached.
 */
export async function ensurePostgresDatabase(connectionString: string): Promise<boolean> {
  try {
    await withClient(connectionString, async () => undefined);
    return false;
  } catch (error) {
    if ((error as { code?: unknown }).code !== '3D000')
      throw connectionError(connectionString, error);
  }
  const name = databaseName(connectionString);
  try {
    await withClient(databaseUrlFor(connectionString, 'postgres'), (client) =>
      client.query(`CREATE DATABASE ${quoteIdent(name)}`),
    );
  } catch (error) {
    // 42P04: another process created it between our two connections.
    if ((error as { code?: unknown }).code === '42P04') return false;
    throw connectionError(connectionString, error);
  }
  return true;
}

/** One short-lived connection (not a pool): for administration statements. */
export async function withClient<T>(
  connectionString: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined); // a dropped connection surfaces through the failing query
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
