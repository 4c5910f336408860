/** The dependencies whose outage an edge reports by name. */
export const Dependency = {
  Database: 'database',
  ObjectStore: 'object store',
} as const;
export type Dependency = (typeof Dependency)[keyof typeof Dependency];

/**
 * A dependency did not answer (connection refused or reset, no answer in time): nothing
 * was decided, and the same call may succeed once it is back. Adapters throw it (the one
 * place that knows what "unreachable" looks like for their client); every edge maps it
 * to its own answer (a tool error saying to retry, 503 with Retry-After). The message is
 * for the operator's log: it may name the endpoint, so edges do not show it to users.
 */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';

  constructor(
    readonly dependency: Dependency,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isUnavailable = (error: unknown): error is UnavailableError =>
  error instanceof UnavailableError;
