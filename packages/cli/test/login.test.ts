import { access, chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCESS_TOKEN, DEVICE_CODE, REFRESH_TOKEN, USER_CODE, startDeviceAuthStandIn } from './support/device-auth-stand-in.js';
import { aConfigDir, buildCpc, readCredentials, runCpc } from './support/run-cpc.js';

// The CLI's side of RFC 8628: the code first, then polling that honours the interval and slow_down,
// and the documented exit codes when the person denies or the code expires.
beforeAll(() => buildCpc(), 60_000);

/** A PATH whose xdg-open and open only leave a mark: whether cpc tried to open a browser. */
async function aBrowserTrap(): Promise<{ path: string; opened: () => Promise<boolean> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cpc-browser-'));
  const mark = join(dir, 'opened');
  for (const name of ['xdg-open', 'open']) {
    await writeFile(join(dir, name), `#!/bin/sh\necho "$@" > '${mark}'\n`);
    await chmod(join(dir, name), 0o755);
  }
  return { path: `${dir}:${process.env.PATH ?? ''}`, opened: () => access(mark).then(() => true, () => false) };
}

test('login --no-browser --json: the code comes first on stderr; slow_down slows the polling; a denial exits 3', async () => {
  const auth = await startDeviceAuthStandIn(['authorization_pending', 'slow_down', 'access_denied']);
  try {
    const run = await runCpc(['login', '--no-browser', '--json', '--debug'], { CPC_SERVER: auth.mcpUrl, CPC_CONFIG_DIR: await aConfigDir() });
    expect(run.code).toBe(3);
    expect(run.envelope).toEqual({ ok: false, command: 'login', error: { code: 'LOGIN_DENIED', message: expect.stringContaining('denied'), exitCode: 3 } });
    expect(run.events[0]).toEqual({
      event: 'login.code',
      verificationUri: `${auth.issuer}/device`,
      verificationUriComplete: `${auth.issuer}/device?user_code=${USER_CODE}`,
      userCode: USER_CODE,
      expiresIn: 600,
    });
    expect(run.events).toContainEqual({ event: 'login.slow_down', interval: 6 });
    expect(auth.deviceRequests).toHaveLength(1);
    expect(Object.fromEntries(auth.deviceRequests[0]!)).toEqual({ client_id: 'cpc', scope: 'mcp:read mcp:write', resource: auth.mcpUrl, device_name: expect.stringMatching(/^cpc on .{1,57}$/) });
    expect(auth.tokenRequests.map((params) => Object.fromEntries(params))).toEqual(
      Array(3).fill({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: DEVICE_CODE, client_id: 'cpc' }),
    );
    expect(run.stdout + run.stderr).not.toContain(DEVICE_CODE);
  } finally {
    await auth.close();
  }
}, 30_000);

test('an expired code exits 3; with stdin not a terminal no browser is opened, even without --no-browser', async () => {
  const auth = await startDeviceAuthStandIn(['expired_token']);
  const trap = await aBrowserTrap();
  try {
    const run = await runCpc(['login', '--json'], { PATH: trap.path, CPC_SERVER: auth.mcpUrl, CPC_CONFIG_DIR: await aConfigDir() });
    expect(run.code).toBe(3);
    expect(run.envelope.error).toMatchObject({ code: 'LOGIN_EXPIRED', exitCode: 3 });
    expect(await trap.opened()).toBe(false);
  } finally {
    await auth.close();
  }
});

test('a confirmed login is saved 0600 for the cpc client, and no token is printed', async () => {
  const auth = await startDeviceAuthStandIn(['authorization_pending', 'tokens']);
  const dir = await aConfigDir();
  try {
    const run = await runCpc(['login', '--no-browser', '--json', '--debug'], { CPC_SERVER: auth.mcpUrl, CPC_CONFIG_DIR: dir });
    expect(run.code).toBe(0);
    expect(run.envelope).toEqual({
      ok: true,
      command: 'login',
      data: { server: auth.mcpUrl, issuer: auth.issuer, email: null, userId: null, scope: 'mcp:read mcp:write', credentialsFile: join(dir, 'credentials.json') },
    });
    // The stand-in has no MCP server behind it: the check after the login says so, and the login stands.
    expect(run.events).toContainEqual(expect.objectContaining({ event: 'login.unverified' }));
    expect(await readCredentials(dir)).toEqual({
      server: auth.mcpUrl,
      issuer: auth.issuer,
      clientId: 'cpc',
      accessToken: ACCESS_TOKEN,
      refreshToken: REFRESH_TOKEN,
      expiresAt: expect.any(Number),
      scope: 'mcp:read mcp:write',
    });
    expect((await stat(join(dir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    for (const secret of [ACCESS_TOKEN, REFRESH_TOKEN, DEVICE_CODE]) expect(run.stdout + run.stderr).not.toContain(secret);
  } finally {
    await auth.close();
  }
});

test('an auth server that answers 503 while polling: exit 7, SERVICE_UNAVAILABLE', async () => {
  const auth = await startDeviceAuthStandIn(['unavailable']);
  try {
    const run = await runCpc(['login', '--no-browser', '--json'], { CPC_SERVER: auth.mcpUrl, CPC_CONFIG_DIR: await aConfigDir() });
    expect(run.code).toBe(7);
    expect(run.envelope.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('the database is down'), exitCode: 7 });
  } finally {
    await auth.close();
  }
});
