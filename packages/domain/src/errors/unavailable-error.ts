import { DomainError, ErrorCode } from './domain-error.js';
import { RETRY_AFTER_SECONDS } from './http-status.js';

/** The dependencies whose outage an edge reports by name. */
export const Dependency = {
  Database: 'database',
  ObjectStore: 'object store',
} as const;
export type Dependency = (typeof Dependency)[keyof typeof Dependency];

const CODE = { database: ErrorCode.DatabaseUnavailable, 'object store': ErrorCode.StoreUnavailable } as const;

/**
 * A dependency did not answer (connection refused or reset, no answer in time): nothing
 * was decided, and the same call may succeed once it is back. The adapter that knows what
 * "unreachable" looks like for its client throws it (packages/db, packages/storage); every
 * edge maps its code like any other (503 with Retry-After, a tool error saying to retry).
 * The message is safe to show; the adapter's own error, which may name the endpoint, is
 * the cause, for the log only.
 */
export class UnavailableError extends DomainError {
  constructor(
    readonly dependency: Dependency,
    options?: { cause?: unknown },
  ) {
    super(CODE[dependency], `The ${dependency} is unavailable right now, so nothing was read or changed. Retry in ${RETRY_AFTER_SECONDS} seconds.`);
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false });
  }
}

export const isUnavailable = (error: unknown): error is UnavailableError => error instanceof UnavailableError;
