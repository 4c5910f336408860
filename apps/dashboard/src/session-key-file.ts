import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Env } from './env.js';

/** A session key file that cannot be used: the message says which file and what to do. */
export class SessionKeyFileError extends Error {
  override readonly name = 'SessionKeyFileError';
}

const MIN_LENGTH = 32;

async function readKey(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let key: unknown;
  try {
    key = (JSON.parse(text) as { sessionKey?: unknown }).sessionKey;
  } catch {
    key = undefined;
  }
  if (typeof key !== 'string' || key.length < MIN_LENGTH) {
    throw new SessionKeyFileError(
      `${file}: expected {"sessionKey": "<at least ${MIN_LENGTH} characters>"}; delete the file to generate a new key (signed-in users sign in again)`,
    );
  }
  return key;
}

/**
 * Development and the embedded `pnpm start` only (production requires
 * DASHBOARD_SESSION_KEYS): a session-signing key drawn at the first start of an
 * installation and kept in `file` (mode 0600), so no two installations share a key
 * and sessions survive restarts. As the auth server does for its local secrets.
 */
export async function loadOrCreateSessionKey(file: string): Promise<string> {
  const existing = await readKey(file);
  if (existing !== null) return existing;
  const sessionKey = randomBytes(32).toString('base64url');
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(file, `${JSON.stringify({ sessionKey }, null, 2)}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (error) {
    // Another process of this installation wrote it first: use its key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readKey(file))!;
    throw error;
  }
  return sessionKey;
}

/** DASHBOARD_SESSION_KEYS, or this installation's generated key (DASHBOARD_SECRETS_FILE, relative to `root`). */
export async function sessionKeysFor(
  env: Pick<Env, 'sessionKeys' | 'secretsFile'>,
  root: string,
): Promise<string[]> {
  return env.sessionKeys ?? [await loadOrCreateSessionKey(resolve(root, env.secretsFile))];
}
