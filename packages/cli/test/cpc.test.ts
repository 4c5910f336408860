import { readdir, stat, chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { aMembership, aUserWithOrganization } from '@cp/db/testing';
import { tokenRequest } from '../../../apps/auth-server/test/support/oauth-client.js';
import { startCliStack, type CliStack, type Login } from './support/stack.js';
import { startActionsTokenService } from './support/actions-token-service.js';
import { aConfigDir, aProject, componentHtml, readCredentials, runCpc, type CpcRun } from './support/run-cpc.js';

// The built cpc as a child process, against the real auth server, MCP server, S3 and delivery API.
let stack: CliStack;
let login: Login;
let configDir: string;
const outputs: CpcRun[] = [];

const savedLogin = (l: Login, overrides: Record<string, unknown> = {}) => ({
  server: stack.mcpUrl,
  issuer: stack.auth.issuer,
  clientId: l.clientId,
  accessToken: l.accessToken,
  refreshToken: l.refreshToken,
  expiresAt: Date.now() + l.expiresIn * 1000,
  scope: l.scope,
  ...overrides,
});

/** A well-formed API token (docs/cli-and-ci.md): 256 random bits and the CRC-32 of what comes before. */
function anApiToken(): string {
  const body = `cpt_${randomBytes(32).toString('base64url')}`;
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body) >>> 0);
  return body + checksum.toString('base64url');
}

/** cpc with this file's login, --json and --debug; every run's output is kept for the token scan. */
async function cpc(args: string[], env: Record<string, string> = {}): Promise<CpcRun> {
  const run = await runCpc([...args, '--json', '--debug'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: configDir, ...env });
  outputs.push(run);
  return run;
}

beforeAll(async () => {
  stack = await startCliStack();
  login = await stack.aLogin();
  configDir = await aConfigDir(savedLogin(login));
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('usage', () => {
  test.each([
    [[], 'cpc', /Name a command/],
    [['deploy'], 'cpc', /Unknown command "deploy"/],
    [['push'], 'push', /takes one argument/],
    [['push', 'a', 'b'], 'push', /takes one argument \(got 2\)/],
    [['push', 'dist', '--token', 'x'], 'push', /Unknown option '--token'/],
    [['push', 'dist', '--env', 'staging'], 'push', /--env only applies with --publish/],
    [['push', 'dist', '--publish'], 'push', /--publish needs --env/],
    [['variants'], 'variants', /--component <id> is required/],
    [['rollback', '--component', 'c'], 'rollback', /--env <environment> is required/],
    [['whoami', '--server', 'localhost:4100'], 'whoami', /--server must be the MCP server's http\(s\) URL/],
  ])('cpc %j is a usage error (exit 2) in the envelope', async (args, command, message) => {
    const run = await cpc(args);
    expect(run.code).toBe(2);
    expect(run.envelope).toEqual({ ok: false, command, error: { code: 'USAGE', message: expect.stringMatching(message), exitCode: 2 } });
  });

  test('without --json a usage error is one line on stderr, and stdout stays empty', async () => {
    const run = await runCpc(['push'], { CPC_CONFIG_DIR: configDir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^cpc push: cpc push takes one argument/);
  });

  test('--help answers the usage, exit 0', async () => {
    const run = await cpc(['push', '--help']);
    expect(run.code).toBe(0);
    expect(run.envelope).toEqual({ ok: true, command: 'push', data: { usage: expect.stringMatching(/^cpc push <file\|dir>/) } });
  });
});

describe('credentials', () => {
  test('whoami with the saved login: the user and the scopes, exit 0', async () => {
    const run = await cpc(['whoami']);
    expect(run.code).toBe(0);
    expect(run.envelope).toEqual({
      ok: true,
      command: 'whoami',
      data: { server: stack.mcpUrl, userId: login.user.id, email: login.user.email, scope: 'mcp:read mcp:write', source: 'login', credential: null },
    });
  });

  test('not signed in, stdin not a terminal: exit 3 at once, no prompt', async () => {
    const run = await runCpc(['whoami', '--json'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: await aConfigDir() });
    expect(run.code).toBe(3);
    expect(run.envelope.error).toEqual({ code: 'AUTH_REQUIRED', message: expect.stringContaining('Run cpc login'), exitCode: 3 });
  });

  test('a credentials file group or others can read is refused (exit 3), and its token is not printed', async () => {
    const dir = await aConfigDir(savedLogin(login));
    await chmod(join(dir, 'credentials.json'), 0o644);
    const run = await runCpc(['whoami', '--json', '--debug'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: dir });
    outputs.push(run);
    expect(run.code).toBe(3);
    expect(run.envelope.error).toEqual({ code: 'CREDENTIALS_INSECURE', message: expect.stringContaining('chmod 600'), exitCode: 3 });
  });

  test('an expired access token is renewed with the refresh token; the new login is saved 0600 in a 0700 folder', async () => {
    const own = await stack.aLogin();
    const dir = await aConfigDir(savedLogin(own, { expiresAt: Date.now() - 1000 }));
    const run = await runCpc(['whoami', '--json', '--debug'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: dir });
    outputs.push(run);
    expect(run.code).toBe(0);
    expect(run.envelope.data.email).toBe(own.user.email);
    const saved = await readCredentials(dir);
    expect(saved.accessToken).not.toBe(own.accessToken);
    expect(saved.refreshToken).not.toBe(own.refreshToken);
    expect(saved.expiresAt).toBeGreaterThan(Date.now());
    expect((await stat(join(dir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await readdir(dir)).toEqual(['credentials.json']);
  });

  test('three cpc at once with an expired login: one renews it, all three succeed, the login still works', async () => {
    const own = await stack.aLogin();
    const dir = await aConfigDir(savedLogin(own, { expiresAt: Date.now() - 1000 }));
    const env = { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: dir };
    const runs = await Promise.all([1, 2, 3].map(() => runCpc(['whoami', '--json', '--debug'], env)));
    outputs.push(...runs);
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    // The auth server revokes a login whose rotated refresh token is used twice: it was not.
    const after = await runCpc(['whoami', '--json'], env);
    expect(after.code).toBe(0);
    expect(await readdir(dir)).toEqual(['credentials.json']);
  });

  test('a malformed CPC_TOKEN is refused before any request (exit 3), and not echoed', async () => {
    const token = 'cpt_' + 'A'.repeat(49);
    const run = await runCpc(['whoami', '--json', '--debug'], { CPC_SERVER: 'http://127.0.0.1:9/mcp', CPC_TOKEN: token, CPC_CONFIG_DIR: configDir });
    expect(run.code).toBe(3);
    expect(run.envelope.error).toEqual({ code: 'INVALID_API_TOKEN', message: expect.stringContaining('checksum does not match'), exitCode: 3 });
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  test('CPC_TOKEN_FILE: a file that cannot be read, or holds no API token, is exit 3 naming the variable', async () => {
    const missing = await runCpc(['whoami', '--json'], { CPC_SERVER: stack.mcpUrl, CPC_TOKEN_FILE: join(configDir, 'no-such-token'), CPC_CONFIG_DIR: configDir });
    expect(missing.code).toBe(3);
    expect(missing.envelope.error).toMatchObject({ code: 'TOKEN_FILE_UNREADABLE', message: expect.stringContaining('ENOENT'), exitCode: 3 });
    const file = join(await aConfigDir(), 'token');
    await writeFile(file, 'not-a-token\n', { mode: 0o600 });
    const wrong = await runCpc(['whoami', '--json'], { CPC_SERVER: stack.mcpUrl, CPC_TOKEN_FILE: file, CPC_CONFIG_DIR: configDir });
    expect(wrong.code).toBe(3);
    expect(wrong.envelope.error).toMatchObject({ code: 'INVALID_API_TOKEN', message: expect.stringMatching(/^CPC_TOKEN_FILE: This is not an API token: API tokens start with cpt_/), exitCode: 3 });
  });

  test('a well-formed API token, a server that cannot be reached: exit 7', async () => {
    const run = await runCpc(['whoami', '--json'], { CPC_SERVER: 'http://127.0.0.1:9/mcp', CPC_TOKEN: anApiToken(), CPC_CONFIG_DIR: configDir });
    expect(run.code).toBe(7);
    expect(run.envelope.error).toMatchObject({ code: 'NETWORK', exitCode: 7 });
  });

  test('GitHub Actions: the OIDC token is asked for with audience = the issuer, and exchanged at the token endpoint', async () => {
    const idToken = `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: 'repo:acme/web' })).toString('base64url')}.c2lnbmF0dXJl`;
    const actions = await startActionsTokenService(idToken);
    try {
      const requestToken = 'actions-request-token-0123456789';
      const run = await cpc(['whoami'], {
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        ACTIONS_ID_TOKEN_REQUEST_URL: actions.requestUrl,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
        CPC_CONFIG_DIR: await aConfigDir(),
      });
      expect(actions.requests).toHaveLength(1);
      expect(actions.requests[0]!.url.searchParams.get('api-version')).toBe('2.0');
      expect(actions.requests[0]!.url.searchParams.get('audience')).toBe(stack.auth.issuer);
      expect(actions.requests[0]!.headers.authorization).toBe(`bearer ${requestToken}`);
      // This issuer trusts no CI provider (no policy, no registry entry for the stand-in): the exchange is refused.
      expect(run.code).toBe(3);
      expect(run.envelope.error).toMatchObject({ code: 'EXCHANGE_REFUSED', message: expect.stringMatching(/^The CI token was refused: /), exitCode: 3 });
      expect(run.stdout + run.stderr).not.toContain(idToken);
      expect(run.stdout + run.stderr).not.toContain(requestToken);
    } finally {
      await actions.close();
    }
  });

  test('a read-only login cannot push: exit 4', async () => {
    const readOnly = await stack.aLogin({ scope: 'mcp:read' });
    const dir = await aConfigDir(savedLogin(readOnly));
    const project = await aProject(componentHtml('read only'));
    const run = await runCpc(['push', project, '--name', 'Read only', '--json'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: dir });
    expect(run.code).toBe(4);
    expect(run.envelope.error).toMatchObject({ code: 'FORBIDDEN', exitCode: 4 });
  });

  test('logout revokes the refresh token at the auth server and deletes the file', async () => {
    const own = await stack.aLogin();
    const dir = await aConfigDir(savedLogin(own));
    const run = await runCpc(['logout', '--json'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: dir });
    expect(run.code).toBe(0);
    expect(run.envelope.data).toEqual({ loggedOut: true, revoked: true });
    expect(await readdir(dir)).toEqual([]);
    const refreshed = await tokenRequest(stack.auth.issuer, { grant_type: 'refresh_token', client_id: own.clientId, refresh_token: own.refreshToken });
    expect(refreshed.json.error).toBe('invalid_grant');
  });
});

describe('push, list, variants, rollback', () => {
  test('--dry-run checks the file and creates no upload session', async () => {
    const project = await aProject(componentHtml('dry'));
    const before = await stack.countUploadSessions();
    const run = await cpc(['push', project, '--name', 'Dry run', '--publish', '--env', 'staging', '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.envelope.data).toMatchObject({ dryRun: true, file: join(project, 'dist', 'index.html'), name: 'Dry run', publishTo: 'staging' });
    expect(await stack.countUploadSessions()).toBe(before);
  });

  test('--dry-run refuses a file that is not HTML (exit 1), and still creates no session', async () => {
    const project = await aProject('just text');
    const before = await stack.countUploadSessions();
    const run = await cpc(['push', project, '--name', 'Not html', '--dry-run']);
    expect(run.code).toBe(1);
    expect(run.envelope.error).toMatchObject({ code: 'UPLOAD_NOT_HTML', exitCode: 1 });
    expect(await stack.countUploadSessions()).toBe(before);
  });

  test('push --publish twice, then rollback: /consume serves the first version again', async () => {
    const project = await aProject(componentHtml('v1'));
    const first = await cpc(['push', project, '--name', 'Checkout banner', '--publish', '--env', 'staging']);
    expect(first.code).toBe(0);
    const { componentId, variantId: firstVariant } = first.envelope.data;
    expect(first.envelope.data).toMatchObject({ isNewComponent: true, sequence: 1, release: { status: 'released', environment: 'staging', variantId: firstVariant } });
    expect(first.events.filter((event) => event.event === 'upload.progress').at(-1)).toEqual({ event: 'upload.progress', sent: expect.any(Number), total: expect.any(Number) });
    expect(await stack.eventuallyConsumed(componentId, 'staging', firstVariant)).toBe(firstVariant);

    await writeFile(join(project, 'dist', 'index.html'), componentHtml('v2'));
    const second = await cpc(['push', project, '--component', componentId, '--publish', '--env', 'staging']);
    expect(second.code).toBe(0);
    const secondVariant = second.envelope.data.variantId;
    expect(second.envelope.data).toMatchObject({ isNewComponent: false, sequence: 2, release: { status: 'released', previousVariantId: firstVariant } });
    expect(await stack.eventuallyConsumed(componentId, 'staging', secondVariant)).toBe(secondVariant);

    const rolledBack = await cpc(['rollback', '--component', componentId, '--env', 'staging']);
    expect(rolledBack.code).toBe(0);
    expect(rolledBack.envelope.data).toMatchObject({ componentId, from: { variantId: secondVariant, sequence: 2 }, release: { status: 'released', variantId: firstVariant } });
    expect(await stack.eventuallyConsumed(componentId, 'staging', firstVariant)).toBe(firstVariant);

    const listed = await cpc(['variants', '--component', componentId]);
    expect(listed.code).toBe(0);
    expect((listed.envelope.data.variants as { sequence: number; environments: string[] }[]).map((v) => [v.sequence, v.environments])).toEqual([
      [2, []],
      [1, ['staging']],
    ]);
    const text = await runCpc(['variants', '--component', componentId], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: configDir });
    outputs.push(text);
    expect(text.stdout).toBe(`Checkout banner (${componentId})\n  v2  ${secondVariant}\n  v1  ${firstVariant}  released: staging\n`);
    const components = await cpc(['list']);
    expect(components.code).toBe(0);
    expect((components.envelope.data.organizations as { components: { id: string }[] }[]).flatMap((o) => o.components.map((c) => c.id))).toContain(componentId);
  });

  test('service.config.json in the folder names the component when no flag does', async () => {
    const project = await aProject(componentHtml('configured'));
    await writeFile(join(project, 'service.config.json'), JSON.stringify({ name: 'Configured banner', componentId: null }));
    const run = await cpc(['push', project]);
    expect(run.code).toBe(0);
    expect(run.envelope.data).toMatchObject({ componentName: 'Configured banner', isNewComponent: true, release: null });
  });

  test('a member publishing to a protected environment with --require-release: uploaded, not released, exit 6', async () => {
    const other = await aUserWithOrganization(stack.domain.repos);
    await aMembership(stack.database, { userId: login.user.id, organizationId: other.organization.id, role: 'member' });
    const project = await aProject(componentHtml('needs approval'));
    const run = await cpc(['push', project, '--name', 'Guarded', '--org', other.organization.id, '--publish', '--env', 'prod', '--require-release']);
    expect(run.code).toBe(6);
    expect(run.envelope.error).toMatchObject({ code: 'PENDING_APPROVAL', message: expect.stringMatching(/Version 1 of Guarded \(componentId [0-9a-f-]{36}\) was uploaded; nothing is released/), exitCode: 6 });
    const without = await cpc(['push', project, '--name', 'Guarded too', '--org', other.organization.id, '--publish', '--env', 'prod']);
    expect(without.code).toBe(0);
    expect(without.envelope.data.release).toMatchObject({ status: 'pending_approval', environment: 'prod' });
  });

  test('an unknown component: exit 5; nothing to roll back: exit 1', async () => {
    const missing = await cpc(['variants', '--component', '7aa63dd6-bdf9-434e-8f09-17bb243978e1']);
    expect(missing.code).toBe(5);
    expect(missing.envelope.error).toMatchObject({ code: 'NOT_FOUND', exitCode: 5 });
    const project = await aProject(componentHtml('alone'));
    const pushed = await cpc(['push', project, '--name', 'Alone', '--publish', '--env', 'staging']);
    const nothing = await cpc(['rollback', '--component', pushed.envelope.data.componentId, '--env', 'staging']);
    expect(nothing.code).toBe(1);
    expect(nothing.envelope.error).toMatchObject({ code: 'NOTHING_TO_ROLL_BACK', exitCode: 1 });
  });
});

describe('secrets', () => {
  test('no output of any run above holds a token, even with --debug', () => {
    expect(outputs.length).toBeGreaterThan(10);
    const everything = outputs.map((run) => run.stdout + run.stderr).join('\n');
    expect(everything).toContain('debug');
    for (const secret of [login.accessToken, login.refreshToken]) expect(everything).not.toContain(secret);
    // Nothing shaped like a JWT or an API token either (prefixes end in "…").
    expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]{12,}\.[A-Za-z0-9_-]+\./);
    expect(everything).not.toMatch(/cpt_[A-Za-z0-9_-]{13,}/);
    // Nor a presigned upload URL, which is a credential for its object.
    expect(everything).not.toContain('X-Amz-Signature');
  });
});
