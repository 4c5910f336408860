import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from '../src/env.js';
import { loadOrCreateSessionKey, sessionKeysFor } from '../src/session-key-file.js';
import { anAccount, startDashboardStack } from './support/dashboard-server.js';
import { sessionCookie } from './support/sign-in.js';

/* Without DASHBOARD_SESSION_KEYS, each installation draws its own session key and keeps it. */

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cp-dashboard-key-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

test('two installations get different keys; a restart reads the same key back; the file is private', async () => {
  const first = await sessionKeysFor(parseEnv({}), join(folder, 'one'));
  const second = await sessionKeysFor(parseEnv({}), join(folder, 'two'));
  expect(first).toHaveLength(1);
  expect(first[0]!.length).toBeGreaterThanOrEqual(32);
  expect(second[0]).not.toBe(first[0]);
  expect(await sessionKeysFor(parseEnv({}), join(folder, 'one'))).toEqual(first);

  const file = join(folder, 'one', '.data/dashboard/secrets.json');
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ sessionKey: first[0] });
  expect((await stat(file)).mode & 0o777).toBe(0o600);
});

test('DASHBOARD_SESSION_KEYS wins and nothing is written; DASHBOARD_SECRETS_FILE moves the file', async () => {
  const keys = ['k'.repeat(32), 'l'.repeat(40)];
  expect(
    await sessionKeysFor(parseEnv({ DASHBOARD_SESSION_KEYS: keys.join(',') }), folder),
  ).toEqual(keys);
  await expect(stat(join(folder, '.data'))).rejects.toMatchObject({ code: 'ENOENT' });

  const [key] = await sessionKeysFor(
    parseEnv({ DASHBOARD_SECRETS_FILE: 'elsewhere/key.json' }),
    folder,
  );
  expect(JSON.parse(await readFile(join(folder, 'elsewhere/key.json'), 'utf8'))).toEqual({
    sessionKey: key,
  });
});

test('concurrent first starts of one installation agree on one key', async () => {
  const file = join(folder, 'secrets.json');
  const keys = await Promise.all(Array.from({ length: 5 }, () => loadOrCreateSessionKey(file)));
  expect(new Set(keys).size).toBe(1);
});

test('an unusable key file is named, with what to do', async () => {
  const file = join(folder, 'secrets.json');
  await writeFile(file, '{"sessionKey": "short"}');
  await expect(loadOrCreateSessionKey(file)).rejects.toThrow(
    `${file}: expected {"sessionKey": "<at least 32 characters>"}; delete the file`,
  );
});

test('production still requires DASHBOARD_SESSION_KEYS', () => {
  expect(() =>
    parseEnv({
      NODE_ENV: 'production',
      DASHBOARD_URL: 'https://d.example.com',
      AUTH_ISSUER: 'https://a.example.com',
    }),
  ).toThrow('DASHBOARD_SESSION_KEYS: required in production');
});

test('over HTTP: a session signed with the generated key survives a restart of the dashboard', async () => {
  const keysNow = () => sessionKeysFor(parseEnv({}), folder);
  const before = await startDashboardStack({ config: { sessionKeys: await keysNow() } });
  try {
    const alice = await anAccount(before.auth);
    const cookie = sessionCookie(alice.id, (await keysNow())[0]!);
    const orgs = (url: string) => fetch(`${url}/orgs`, { redirect: 'manual', headers: { cookie } });
    expect((await orgs(before.url)).status).toBe(200);

    // A new process of the same installation (same data folder), on the same data.
    const after = await startDashboardStack({
      config: { sessionKeys: await keysNow() },
      shared: { repos: before.domain.repos, objects: before.domain.objects, usage: before.usage, rolloutFigures: before.rolloutFigures },
    });
    try {
      expect((await orgs(after.url)).status).toBe(200);
    } finally {
      await after.close();
    }
    // Another installation's key does not open it.
    const other = await sessionKeysFor(parseEnv({}), join(folder, 'other'));
    const foreign = sessionCookie(alice.id, other[0]!);
    expect(
      (await fetch(`${before.url}/orgs`, { redirect: 'manual', headers: { cookie: foreign } }))
        .status,
    ).toBe(303);
  } finally {
    await before.close();
  }
}, 60_000);
