import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, ExitCode } from '../cli/errors.js';

export interface ComponentFile {
  readonly path: string;
  /** The folder service.config.json is read from: the directory given, or the file's. */
  readonly projectDir: string;
  readonly bytes: Buffer;
}

const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => null))?.isFile() === true;

/** `push <file|dir>`: a file as it is; a folder's index.html, else its dist/index.html. */
export async function resolveComponentFile(argument: string): Promise<ComponentFile> {
  const stats = await stat(argument).catch(() => null);
  if (stats === null) throw new CliError('FILE_NOT_FOUND', `${argument} does not exist. Pass the built file or its folder, for example "cpc push dist/".`, ExitCode.Usage);
  if (stats.isDirectory()) {
    for (const candidate of [join(argument, 'index.html'), join(argument, 'dist', 'index.html')]) {
      if (await isFile(candidate)) return { path: candidate, projectDir: argument, bytes: await readFile(candidate) };
    }
    throw new CliError('FILE_NOT_FOUND', `${argument} holds neither index.html nor dist/index.html. Build the component first.`, ExitCode.Usage);
  }
  return { path: argument, projectDir: join(argument, '..'), bytes: await readFile(argument) };
}
