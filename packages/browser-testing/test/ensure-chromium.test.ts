import { ensureChromium, type EnsureChromiumDeps } from '../src/ensure-chromium.js';

/*
 * The decision, with the system replaced: a test cannot remove and reinstall
 * Debian packages on the machine it runs on. The command-line entry point is
 * run for real in cli.test.ts.
 */
function aSystem(options: { root?: boolean; apt?: boolean; installed?: boolean; env?: Record<string, string>; aptFailsUntilUpdate?: boolean } = {}) {
  const calls: string[] = [];
  let installed = options.installed ?? false;
  let updated = false;
  const deps: EnsureChromiumDeps = {
    env: options.env ?? {},
    isRoot: options.root ?? true,
    has: (command) => command === 'apt-get' && (options.apt ?? true),
    isExecutable: (path) => installed && path === '/usr/bin/chromium',
    run: (command, args) => {
      calls.push([command, ...args].join(' '));
      if (args[0] === 'update') updated = true;
      if (args[0] === 'install' && (!options.aptFailsUntilUpdate || updated)) installed = true;
      return args[0] === 'update' || installed;
    },
    log: (line) => calls.push(`log: ${line}`),
  };
  return { deps, calls };
}

test('an installed Chromium is used as it is', () => {
  const { deps, calls } = aSystem({ installed: true });
  expect(ensureChromium(deps)).toEqual({ ok: true, path: '/usr/bin/chromium' });
  expect(calls).toEqual([]);
});

test('root with apt-get installs Debian chromium, refreshing the package lists when the first try fails', () => {
  const { deps, calls } = aSystem({ aptFailsUntilUpdate: true });
  expect(ensureChromium(deps)).toEqual({ ok: true, path: '/usr/bin/chromium' });
  expect(calls.filter((call) => !call.startsWith('log:'))).toEqual([
    'apt-get install -y -qq chromium',
    'apt-get update -qq',
    'apt-get install -y -qq chromium',
  ]);
});

test('a user who cannot install gets the exact command, with sudo', () => {
  const { deps, calls } = aSystem({ root: false });
  const result = ensureChromium(deps);
  expect(result).toEqual({ ok: false, message: expect.stringContaining('`sudo apt-get update && sudo apt-get install -y chromium`') });
  expect(calls).toEqual([]);
});

test('without apt-get, nothing is tried and the message says what to install', () => {
  const { deps, calls } = aSystem({ apt: false });
  expect(ensureChromium(deps)).toEqual({ ok: false, message: expect.stringContaining('apt-get install -y chromium') });
  expect(calls).toEqual([]);
});

test('a CHROMIUM_PATH that names nothing is reported, never replaced by an install', () => {
  const { deps, calls } = aSystem({ env: { CHROMIUM_PATH: '/opt/none/chrome' } });
  const result = ensureChromium(deps);
  expect(result).toEqual({ ok: false, message: expect.stringMatching(/^Chromium not found at \/opt\/none\/chrome \(CHROMIUM_PATH\)/) });
  expect(calls).toEqual([]);
});

test('an install that fails both times reports the command', () => {
  const { deps } = aSystem();
  deps.run = () => false;
  expect(ensureChromium(deps)).toEqual({ ok: false, message: expect.stringContaining('apt-get install -y chromium') });
});
