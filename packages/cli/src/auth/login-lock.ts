import { open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, ExitCode } from '../cli/errors.js';

// A lock older than this was left by a process that died while renewing: renewing takes one request.
const STALE_MS = 30_000;
const WAIT_MS = 100;
const ATTEMPTS = 300;

/**
 * Runs `renew` while holding `<dir>/credentials.lock`, so two cpc processes never renew the same login at once:
 * the auth server rotates refresh tokens, and a rotated one used again revokes the whole login.
 */
export async function withLoginLock<T>(dir: string, sleep: (ms: number) => Promise<void>, renew: () => Promise<T>): Promise<T> {
  const lock = join(dir, 'credentials.lock');
  for (let attempt = 0; ; attempt += 1) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await stat(lock).then((stats) => Date.now() - stats.mtimeMs, () => 0);
      if (since > STALE_MS) await rm(lock, { force: true });
      else if (attempt >= ATTEMPTS) throw new CliError('LOGIN_LOCKED', `Another cpc is renewing the login (${lock}); try again, or delete that file if no cpc runs.`, ExitCode.Failure);
      else await sleep(WAIT_MS);
    }
  }
  try {
    return await renew();
  } finally {
    await rm(lock, { force: true });
  }
}
