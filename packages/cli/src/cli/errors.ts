/** The exit codes scripts and CI branch on (README.md, "Exit codes"). */
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  Auth: 3,
  Forbidden: 4,
  NotFound: 5,
  PendingApproval: 6,
  Network: 7,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the CLI reports as `{ ok: false, error: { code, message, exitCode } }` and exits with. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export const usageError = (message: string): CliError => new CliError('USAGE', message, ExitCode.Usage);

export const authRequired = (message: string): CliError => new CliError('AUTH_REQUIRED', message, ExitCode.Auth);

export const networkError = (what: string, error: unknown): CliError => {
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  const detail = typeof cause === 'string' ? cause : error instanceof Error ? error.message : String(error);
  return new CliError('NETWORK', `Could not reach ${what} (${detail}). Check the address and your connection, then try again.`, ExitCode.Network);
};

/** A tool error's code (docs/tool-contract.md) as the CLI's exit code. */
export function exitCodeOfToolError(code: string): ExitCode {
  if (code === 'FORBIDDEN') return ExitCode.Forbidden;
  if (code === 'NOT_FOUND') return ExitCode.NotFound;
  if (code === 'DATABASE_UNAVAILABLE' || code === 'STORE_UNAVAILABLE') return ExitCode.Network;
  return ExitCode.Failure;
}
