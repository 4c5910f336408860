import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { aptInstallCommand } from './debian-package.js';

type Env = Readonly<Record<string, string | undefined>>;

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
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** Launches the browser tests' Chromium through playwright-core (which cannot download its own here). */
export async function launchChromium(env: Env = process.env): Promise<Browser> {
  const executablePath = chromiumPath(env);
  if (!isExecutable(executablePath)) throw new Error(missingChromiumMessage(env, process.getuid?.() === 0));
  return chromium.launch({ executablePath, args: FLAGS });
}
