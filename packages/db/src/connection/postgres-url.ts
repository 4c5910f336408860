/** Helpers for PostgreSQL connection strings that never reveal the password. */

/** `host:port` of a connection string, for messages (no user, no password). */
export function describeServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const socketHost = url.searchParams.get('host');
    const host = url.hostname || socketHost || 'localhost';
    return `${host}:${url.port || '5432'}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/** The database name in a connection string ("postgres" when absent, as libpq does with user postgres). */
export function databaseName(connectionString: string): string {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return name || decodeURIComponent(url.username) || 'postgres';
}

/** The same server and credentials, another database. */
export function databaseUrlFor(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** `"name"`: a quoted identifier, for the few statements (CREATE/DROP DATABASE) that take no parameters. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

interface ErrorFields {
  code?: unknown;
  message?: unknown;
}

/**
 * Turns a failed first connection into an Error that names the server (never the
 * password) and says what to do. Returns the error unchanged when it is not a
 * connection problem.
 */
export function connectionError(connectionString: string, error: unknown): unknown {
  const { code, message } = (error ?? {}) as ErrorFields;
  const server = describeServer(connectionString);
  const reason = typeof message === 'string' ? message : String(error);
  const unreachable =
    (typeof code === 'string' && UNREACHABLE.has(code)) ||
    /timeout|terminated unexpectedly|Connection terminated/i.test(reason);
  if (unreachable) {
    return new Error(
      `Cannot reach PostgreSQL at ${server} (DATABASE_URL): ${reason}. ` +
        'Start PostgreSQL there (or fix DATABASE_URL), or unset DATABASE_URL to use the embedded PGlite database.',
      { cause: error },
    );
  }
  if (code === '3D000') {
    return new Error(
      `PostgreSQL at ${server} has no database "${databaseName(connectionString)}" (DATABASE_URL). ` +
        'Create it (`pnpm db:migrate` creates it for you) or point DATABASE_URL at an existing database.',
      { cause: error },
    );
  }
  if (code === '28P01' || code === '28000') {
    return new Error(
      `PostgreSQL at ${server} refused the credentials in DATABASE_URL: ${reason}. Check the user and password in DATABASE_URL.`,
      { cause: error },
    );
  }
  return error;
}
