import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { aptInstallCommand } from './debian-package.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where jest's global setup leaves the shared browser's address for the test files (shared-chromium.ts). */
export const SHARED_CHROMIUM_ENV = 'CP_TEST_CHROMIUM_WS_ENDPOINT';

/** Debian's package. `CHROMIUM_PATH` names another binary (another distribution, a local build). */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export const chromiumPath = (env: Env = process.env): string => env.CHROMIUM_PATH || DEBIAN_CHROMIUM;

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The one line that tells what to do when the browser is missing. */
export function missingChromiumMessage(env: Env, isRoot: boolean): string {
  const path = chromiumPath(env);
  if (env.CHROMIUM_PATH) {
    return `Chromium not found at ${path} (CHROMIUM_PATH): point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's ${DEBIAN_CHROMIUM}.`;
  }
  return `Chromium not found at ${path}: run \`${aptInstallCommand('chromium', isRoot)}\` (or set CHROMIUM_PATH to a Chromium binary), then run the tests again.`;
}

/*
 * Headless as root in a container, and no background connections: this network
 * refuses them, many at a time, which slows every start.
 */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * The browser tests' Chromium, through playwright-core (which cannot download its own here):
 * the run's shared one when jest's global setup started it (see shared-chromium.ts), else
 * a new one. Closing what this returns closes the contexts it opened, and the browser
 * only when it launched it.
 */
export async function launchChromium(env: Env = process.env): Promise<Browser> {
  const shared = env[SHARED_CHROMIUM_ENV];
  if (shared) return chromium.connect(shared);
  const executablePath = chromiumPath(env);
  if (!isExecutable(executablePath)) throw new Error(missingChromiumMessage(env, process.getuid?.() === 0));
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
}
