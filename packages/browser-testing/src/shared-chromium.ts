import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath, isExecutable, SHARED_CHROMIUM_ENV } from './chromium.js';

export { SHARED_CHROMIUM_ENV };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * One Chromium for every browser test file of a jest run: starting one costs more
 * than connecting to a running one, and each file still gets its own contexts,
 * which close when it disconnects. Null when Chromium is missing: then each
 * browser test file launches its own and fails with the message that says what to install.
 */
export async function startSharedChromium(env: Env = process.env): Promise<BrowserServer | null> {
  const executablePath = chromiumPath(env);
  if (!isExecutable(executablePath)) return null;
  return chromium.launchServer({ executablePath, args: CHROMIUM_FLAGS });
}
