import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDatabase,
  createRepositories,
  defaultPgliteDataDir,
  findRepositoryRoot,
  migrate,
} from '../src/index.js';
import { describeServer } from '../src/connection/postgres-url.js';
import { createTestDatabase } from '../src/testing/index.js';

// Nothing listens on port 1: connecting is refused at once.
const DOWN = 'postgresql://app:s3cret-pw@127.0.0.1:1/app';
const explainsDown = (message: string) => {
  expect(message).toContain('127.0.0.1:1');
  expect(message).toMatch(/Start PostgreSQL/);
  expect(message).toMatch(/unset DATABASE_URL/);
  expect(message).not.toContain('s3cret-pw');
};

describe('an unreachable PostgreSQL', () => {
  it('createDatabase names host and port (never the password) and says what to do', async () => {
    const error = (await createDatabase({ databaseUrl: DOWN }).catch((e: unknown) => e)) as Error;
    explainsDown(error.message);
  });

  it('migrate and createTestDatabase say the same', async () => {
    explainsDown(
      ((await migrate({ databaseUrl: DOWN }).catch((e: unknown) => e)) as Error).message,
    );
    const error = (await createTestDatabase({ kind: 'postgres', databaseUrl: DOWN }).catch(
      (e: unknown) => e,
    )) as Error;
    explainsDown(error.message);
    expect(error.message).toMatch(/DATABASE_URL is set/);
  });

  it('describeServer keeps only host and port', () => {
    expect(describeServer('postgresql://u:p@db.internal:6543/x?sslmode=require')).toBe(
      'db.internal:6543',
    );
    expect(describeServer('postgresql://u:p@db.internal/x')).toBe('db.internal:5432');
  });
});

describe('PGlite in a data folder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cp-db-pglite-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps data across restarts', async () => {
    const dataDir = join(dir, 'nested', 'pglite');
    const first = await createDatabase({ pgliteDataDir: dataDir });
    expect(first).toMatchObject({ kind: 'pglite', location: dataDir });
    expect(
      (await migrate({ adapterFactory: first.adapterFactory })).applied.length,
    ).toBeGreaterThan(0);
    const organization = { id: randomUUID(), name: 'Kept', environments: [] };
    await createRepositories(first).users.createWithOrganization({
      user: { id: randomUUID(), email: 'kept@example.test', displayName: null },
      organization,
      now: new Date(),
    });
    await first.close();

    const second = await createDatabase({ pgliteDataDir: dataDir });
    expect((await migrate({ adapterFactory: second.adapterFactory })).applied).toEqual([]);
    expect(
      await createRepositories(second).users.findByEmail('KEPT@example.test'),
    ).not.toBeNull();
    await second.close();
  }, 60_000);

  it('defaults to .data/pglite under the repository root, else under the working directory', () => {
    const root = findRepositoryRoot(process.cwd());
    expect(root).not.toBeNull();
    expect(defaultPgliteDataDir(process.cwd())).toBe(join(root!, '.data', 'pglite'));
    expect(defaultPgliteDataDir(dir)).toBe(join(dir, '.data', 'pglite'));
  });
});
