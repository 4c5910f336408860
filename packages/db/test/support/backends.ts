import { createTestDatabase, type TestDatabase } from '../../src/testing/index.js';

/** PGlite always; PostgreSQL too when DATABASE_URL is set. */
export const backends: ('pglite' | 'postgres')[] = process.env.DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

/**
 * Runs `suite` once per backend, each against its own new database for this
 * file (tests inside share it and use unique names and ids).
 */
export function describeEachBackend(title: string, suite: (db: () => TestDatabase) => void): void {
  describe.each(backends)(`${title} [%s]`, (kind) => {
    let database: TestDatabase | undefined;
    beforeAll(async () => {
      database = await createTestDatabase({ kind });
    }, 120_000);
    afterAll(async () => {
      await database?.close();
    });
    suite(() => {
      if (!database) throw new Error('the test database is not open (see the beforeAll error)');
      return database;
    });
  });
}

/** The DomainError code a promise rejects with (fails the test when it resolves). */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? `not a coded error: ${String(error)}`;
  }
  throw new Error('expected a rejection');
}
