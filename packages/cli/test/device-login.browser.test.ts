import { access, chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchChromium, type Browser, type BrowserContext, type Page } from '@cp/browser-testing';
import { defaultDeviceFlow } from '../../../apps/auth-server/src/config.js';
import { poll } from '../../../apps/auth-server/test/support/device-client.js';
import { PASSWORD } from '../../../apps/auth-server/test/support/flow.js';
import { aConfigDir, readCredentials, runCpc, startCpc, type CpcProcess } from './support/run-cpc.js';
import { startCliStack, type CliStack } from './support/stack.js';

/*
 * `cpc login` end to end: the built CLI as a child process against the real auth server and MCP server,
 * and a person in headless Chromium (the run's shared browser) who enters the code and decides. The
 * device flow's settings are shortened so that an expired code and slow_down take seconds, not minutes.
 */

// Long enough that the slow_down test's second poller lands well inside the CLI's first wait, even on a loaded machine.
const INTERVAL_S = 4;
const CODE_LIFETIME_S = 20;

let stack: CliStack;
let browser: Browser;
/** The person's browser: signed out at first, signed in after the first test. */
let context: BrowserContext;
const email = `cli-device-${Date.now()}@example.com`;

beforeAll(async () => {
  stack = await startCliStack({ authConfig: { deviceFlow: { ...defaultDeviceFlow, intervalSeconds: INTERVAL_S, codeLifetimeSeconds: CODE_LIFETIME_S } } });
  browser = await launchChromium();
  context = await browser.newContext({ javaScriptEnabled: false });
}, 90_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await stack?.close();
});

interface Code {
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete: string;
}

/** `cpc login --json --debug` (`--no-browser` unless told) in a config dir of its own; resolves once it printed its code. */
async function startLogin(options: { noBrowser?: boolean; path?: string } = {}): Promise<{ cli: CpcProcess; code: Code; configDir: string }> {
  const configDir = await aConfigDir();
  const args = ['login', ...(options.noBrowser === false ? [] : ['--no-browser']), '--json', '--debug'];
  const cli = startCpc(args, { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: configDir, ...(options.path === undefined ? {} : { PATH: options.path }) });
  const code = (await cli.event('login.code')) as unknown as Code;
  return { cli, code, configDir };
}

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

/** The device code behind a user code, as the auth server stored it: only the test may poll beside the CLI. */
async function deviceCodeOf(userCode: string): Promise<string> {
  const stored = await stack.auth.oidc.adapterFor('DeviceCode').findByUserCode(userCode.replace('-', ''));
  if (typeof stored?.jti !== 'string') throw new Error(`no device code for ${userCode}`);
  return stored.jti;
}

/** The confirmation page of the code, reached from verification_uri_complete (the code filled in, sent by the person). */
async function openConfirmation(code: Code): Promise<Page> {
  const page = await context.newPage();
  await page.goto(code.verificationUriComplete);
  await expect(page.getByLabel('Code').inputValue()).resolves.toBe(code.userCode);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Connect this device?' }).isVisible()).resolves.toBe(true);
  return page;
}

test('login --no-browser --json: the code first; a new account confirms in Chromium; exit 0, a 0600 login that whoami uses', async () => {
  const { cli, code, configDir } = await startLogin();

  // The person types the code on the verification page, sees the CLI's device name, and signs up on the way.
  const page = await context.newPage();
  await page.goto(code.verificationUri);
  await page.getByLabel('Code').fill(code.userCode);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(/^cpc on .+/).first().isVisible()).resolves.toBe(true);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByText(`Signed in as ${email}.`).isVisible()).resolves.toBe(true);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Device connected' }).isVisible()).resolves.toBe(true);
  await page.close();

  const run = await cli.done;
  expect(run.code).toBe(0);
  expect(run.events[0]).toEqual({
    event: 'login.code',
    verificationUri: `${stack.auth.issuer}/device`,
    verificationUriComplete: `${stack.auth.issuer}/device?user_code=${code.userCode}`,
    userCode: expect.stringMatching(/^[B-DF-HJ-NP-TV-Z]{4}-[B-DF-HJ-NP-TV-Z]{4}$/),
    expiresIn: CODE_LIFETIME_S,
  });
  const credentialsFile = join(configDir, 'credentials.json');
  expect(run.envelope).toEqual({
    ok: true,
    command: 'login',
    data: { server: stack.mcpUrl, issuer: stack.auth.issuer, email, userId: expect.any(String), scope: 'mcp:read mcp:write', credentialsFile },
  });
  expect((await stat(credentialsFile)).mode & 0o777).toBe(0o600);
  const saved = await readCredentials(configDir);
  expect(saved).toMatchObject({ server: stack.mcpUrl, issuer: stack.auth.issuer, clientId: 'cpc', scope: 'mcp:read mcp:write' });
  for (const secret of [saved.accessToken, saved.refreshToken]) {
    expect(typeof secret).toBe('string');
    expect(run.stdout + run.stderr).not.toContain(secret);
  }

  const whoami = await runCpc(['whoami', '--json'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: configDir });
  expect(whoami.code).toBe(0);
  expect(whoami.envelope.data).toMatchObject({ email, userId: run.envelope.data.userId, source: 'login' });
}, 60_000);

test('denied in the browser: exit 3, LOGIN_DENIED, and nothing saved', async () => {
  const { cli, code, configDir } = await startLogin();
  const page = await openConfirmation(code);
  await expect(page.getByText(`Signed in as ${email}.`).isVisible()).resolves.toBe(true);
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('heading', { name: 'Device not connected' }).isVisible()).resolves.toBe(true);
  await page.close();

  const run = await cli.done;
  expect(run.code).toBe(3);
  expect(run.envelope).toEqual({ ok: false, command: 'login', error: { code: 'LOGIN_DENIED', message: expect.stringContaining('denied'), exitCode: 3 } });
  await expect(stat(join(configDir, 'credentials.json'))).rejects.toMatchObject({ code: 'ENOENT' });
}, 60_000);

test('polled too fast: the server answers slow_down, the CLI waits 5 s longer and is not slowed down again', async () => {
  const { cli, code } = await startLogin();
  // A second poller takes the code's first poll halfway through the CLI's first wait (the CLI waits the
  // interval before it polls): the CLI's first poll then comes sooner than the interval after it.
  const deviceCode = await deviceCodeOf(code.userCode);
  await sleep(INTERVAL_S * 500);
  expect((await poll(stack.auth.issuer, deviceCode)).json.error).toBe('authorization_pending');
  expect(await cli.event('login.slow_down')).toEqual({ event: 'login.slow_down', interval: INTERVAL_S + 5 });

  const page = await openConfirmation(code);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Device connected' }).isVisible()).resolves.toBe(true);
  await page.close();

  // Had the CLI kept its old interval, each later poll would have been too soon again.
  const run = await cli.done;
  expect(run.code).toBe(0);
  expect(run.events.filter((event) => event.event === 'login.slow_down')).toHaveLength(1);
  expect(run.stdout + run.stderr).not.toContain(deviceCode);
}, 60_000);

test('a code nobody confirms expires: exit 3, LOGIN_EXPIRED, the person is told so; stdin not a terminal: no browser opened, even without --no-browser', async () => {
  const trap = await aBrowserTrap();
  const { cli, code } = await startLogin({ noBrowser: false, path: trap.path });
  const run = await cli.done;
  expect(run.code).toBe(3);
  expect(run.envelope.error).toEqual({ code: 'LOGIN_EXPIRED', message: expect.stringContaining('expired'), exitCode: 3 });
  expect(await trap.opened()).toBe(false);

  const page = await context.newPage();
  await page.goto(code.verificationUriComplete);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'This code expired' }).isVisible()).resolves.toBe(true);
  await page.close();
}, 60_000);
