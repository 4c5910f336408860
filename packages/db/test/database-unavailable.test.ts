import { randomUUID } from 'node:crypto';
import { ErrorCode, isDomainError, type DomainError } from '@cp/domain';
import { startFaultProxy, type FaultProxy } from '@cp/http-runtime/testing';
import { createDatabase, createRepositories, isDatabaseUnavailable, type Database } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { aUserWithOrganization } from '../src/testing/builders.js';

/*
 * A PostgreSQL that refuses connections or stops answering (a TCP fault proxy between
 * the pool and the server): every repository call rejects with the domain's
 * DATABASE_UNAVAILABLE within the pool's deadlines, other errors stay what they are,
 * and the same pool works again once the server is back. PostgreSQL only: PGlite runs
 * in the process and has no connection to cut.
 */

const DATABASE_URL = process.env.DATABASE_URL;
const run = DATABASE_URL ? describe : describe.skip;
if (!DATABASE_URL) console.log('database-unavailable: skipped (PostgreSQL only). Set DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres to run it.');

let testDb: TestDatabase;
let proxy: FaultProxy;
let database: Database;

const failure = async (call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> => {
  const start = performance.now();
  const error = await call().then(
    () => null,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - start };
};

const expectUnavailable = (error: unknown) => {
  expect(isDomainError(error)).toBe(true);
  expect((error as DomainError).code).toBe(ErrorCode.DatabaseUnavailable);
  expect((error as DomainError).message).toMatch(/database is unavailable.*Retry/);
};

run('PostgreSQL unavailable under the pool', () => {
  beforeAll(async () => {
    testDb = await createTestDatabase({ kind: 'postgres', databaseUrl: DATABASE_URL! });
    const url = new URL(testDb.url!);
    proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    database = await createDatabase({ databaseUrl: url.href });
  });

  afterAll(async () => {
    await proxy?.restore();
    await database?.close();
    await proxy?.close();
    await testDb?.close();
  });

  it('refused, then hanging: DATABASE_UNAVAILABLE within the deadlines; back: the same pool works', async () => {
    const repos = createRepositories(database);
    const probe = () => repos.users.findById(randomUUID());
    await expect(probe()).resolves.toBeNull();

    await proxy.refuse();
    const refused = await failure(probe);
    expectUnavailable(refused.error);
    expect(refused.ms).toBeLessThan(1000);
    // The hand-written reader (pg itself) and a write in a transaction (Prisma's) too.
    expectUnavailable((await failure(() => repos.components.list({ organizationId: randomUUID(), limit: 10 }))).error);
    expectUnavailable((await failure(() => aUserWithOrganization(repos))).error);

    await proxy.restore();
    await expect(probe()).resolves.toBeNull();

    proxy.hang();
    const hung = await failure(probe);
    expectUnavailable(hung.error);
    // The pool's connection deadline or its query deadline, whichever the call met first.
    expect(hung.ms).toBeLessThan(2000);

    await proxy.restore();
    const back = performance.now();
    let answered = false;
    while (!answered && performance.now() - back < 5000) {
      answered = await probe().then(
        () => true,
        () => false,
      );
    }
    expect(answered).toBe(true);
  }, 30_000);

  it('recognises only failures to reach the database', async () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    // A constraint violation through the repositories stays the domain's answer, not "unavailable".
    const repos = createRepositories(database);
    const email = `dup-${randomUUID()}@example.com`;
    await aUserWithOrganization(repos, { email });
    const taken = await aUserWithOrganization(repos, { email }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(taken).not.toBeNull();
    expect(isDatabaseUnavailable(taken)).toBe(false);
  });
});
