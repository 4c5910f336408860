import { execFile } from 'node:child_process';

export interface ShellResult {
  /** Exit code; null when the process was killed (timeout). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs one command line the way a user pastes it: `<shell> -c <command>`. The command
 * is handed over as a single argument, never concatenated into another command line.
 */
export const runShell = (
  shell: 'sh' | 'bash',
  command: string,
  options: { cwd: string; timeoutMs?: number },
): Promise<ShellResult> =>
  new Promise((resolve) => {
    execFile(
      shell,
      ['-c', command],
      { cwd: options.cwd, timeout: options.timeoutMs ?? 10_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ exitCode, stdout, stderr });
      },
    );
  });
