import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateSigningKey, parseSigningKeys, SigningKeyError, type SigningKey } from './signing-keys.js';

export interface LocalSecrets {
  readonly signingKeys: SigningKey[];
  readonly cookieKeys: string[];
}

/**
 * Development and the embedded `pnpm start` only (production refuses to start
 * without configured secrets): signing and cookie keys generated on the first
 * start and kept in one file (mode 0600), so tokens and sessions survive restarts.
 */
export async function loadOrCreateLocalSecrets(file: string): Promise<LocalSecrets> {
  let text: string | null = null;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    const stored = JSON.parse(text) as { signingKeys?: unknown; cookieKeys?: unknown };
    const cookieKeys: unknown[] = Array.isArray(stored.cookieKeys) ? stored.cookieKeys : [];
    const valid = cookieKeys.filter((key): key is string => typeof key === 'string' && key.length >= 32);
    if (valid.length === 0 || valid.length !== cookieKeys.length) {
      throw new SigningKeyError(`${file}: "cookieKeys" must list strings of at least 32 characters`);
    }
    return { signingKeys: parseSigningKeys(JSON.stringify(stored.signingKeys)), cookieKeys: valid };
  }
  const secrets: LocalSecrets = {
    signingKeys: [await generateSigningKey()],
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ signingKeys: { keys: secrets.signingKeys }, cookieKeys: secrets.cookieKeys }, null, 2)}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  return secrets;
}
