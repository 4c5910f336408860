import { chmod, lstat, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, ExitCode } from '../cli/errors.js';

/** What `cpc login` keeps: the tokens of one login to one MCP server, for the client they were issued to. */
export interface SavedLogin {
  readonly server: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly accessToken: string;
  readonly refreshToken: string | null;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly scope: string;
}

/** $CPC_CONFIG_DIR, else $XDG_CONFIG_HOME/cpc, else ~/.config/cpc. */
export function configDir(env: Readonly<Record<string, string | undefined>>, homedir: string): string {
  if (env.CPC_CONFIG_DIR) return env.CPC_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'cpc');
  return join(homedir, '.config', 'cpc');
}

export const credentialsPath = (dir: string): string => join(dir, 'credentials.json');

// Windows has no POSIX modes: there the file lives under the user's profile, which only they can read.
const checksModes = process.platform !== 'win32';

const insecure = (path: string, mode: number): CliError =>
  new CliError(
    'CREDENTIALS_INSECURE',
    `${path} can be read by other users (mode ${(mode & 0o777).toString(8)}); the CLI does not use it. Run "chmod 600 ${path}", or delete it and run cpc login again.`,
    ExitCode.Auth,
  );

/** The saved login, or null when there is none. Refuses a file group or others can read, and anything but a plain file. */
export async function readSavedLogin(dir: string): Promise<SavedLogin | null> {
  const path = credentialsPath(dir);
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!stats.isFile()) throw new CliError('CREDENTIALS_INSECURE', `${path} is not a plain file; the CLI does not follow it. Delete it and run cpc login again.`, ExitCode.Auth);
  if (checksModes && (stats.mode & 0o077) !== 0) throw insecure(path, stats.mode);
  const value = parseLogin(await readFile(path, 'utf8'));
  if (value === null) throw new CliError('CREDENTIALS_INVALID', `${path} is not a login the CLI saved. Delete it and run cpc login again.`, ExitCode.Auth);
  return value;
}

function parseLogin(text: string): SavedLogin | null {
  try {
    const json = JSON.parse(text) as Partial<SavedLogin>;
    const strings = [json.server, json.issuer, json.clientId, json.accessToken, json.scope].every((value) => typeof value === 'string');
    const refresh = json.refreshToken === null || typeof json.refreshToken === 'string';
    return strings && refresh && typeof json.expiresAt === 'number' ? (json as SavedLogin) : null;
  } catch {
    return null;
  }
}

/** Writes the login as a new 0600 file in a 0700 directory, then renames it over the old one (never a half-written file). */
export async function writeSavedLogin(dir: string, login: SavedLogin): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (checksModes) await chmod(dir, 0o700);
  const path = credentialsPath(dir);
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'wx', 0o600);
  try {
    await file.writeFile(`${JSON.stringify(login, null, 2)}\n`);
  } finally {
    await file.close();
  }
  await rename(temporary, path);
}

export async function deleteSavedLogin(dir: string): Promise<boolean> {
  const path = credentialsPath(dir);
  try {
    await lstat(path);
  } catch {
    return false;
  }
  await rm(path, { force: true });
  return true;
}
