import { ErrorCode, isDomainError, isUnavailable } from '@cp/domain';

/**
 * Tool error codes clients see. Domain codes pass through one table (so a new
 * domain code is a compile error here until someone decides how it surfaces);
 * INVALID_INPUT also covers parameters refused by a tool's input schema,
 * DATABASE_UNAVAILABLE and STORE_UNAVAILABLE are a dependency that did not answer (the
 * call may be retried as is), and INTERNAL is anything unexpected (details go to the
 * log, never to the client).
 */
export const ToolErrorCode = {
  ...ErrorCode,
  Internal: 'INTERNAL',
} as const;
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];

const DOMAIN_TO_TOOL: Readonly<Record<ErrorCode, ToolErrorCode>> = {
  INVALID_INPUT: 'INVALID_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  NAME_TAKEN: 'NAME_TAKEN',
  AMBIGUOUS_ORGANIZATION: 'AMBIGUOUS_ORGANIZATION',
  TOO_MANY_TAGS: 'TOO_MANY_TAGS',
  UPLOAD_NOT_RECEIVED: 'UPLOAD_NOT_RECEIVED',
  UPLOAD_TOO_LARGE: 'UPLOAD_TOO_LARGE',
  UPLOAD_NOT_HTML: 'UPLOAD_NOT_HTML',
  UPLOAD_EXPIRED: 'UPLOAD_EXPIRED',
  ENVIRONMENT_IN_USE: 'ENVIRONMENT_IN_USE',
  ENVIRONMENT_PROTECTED: 'ENVIRONMENT_PROTECTED',
  FORBIDDEN: 'FORBIDDEN',
  LIMIT_REACHED: 'LIMIT_REACHED',
  INVITATION_EXPIRED: 'INVITATION_EXPIRED',
  INVITATION_REVOKED: 'INVITATION_REVOKED',
  INVITATION_USED: 'INVITATION_USED',
  ALREADY_MEMBER: 'ALREADY_MEMBER',
  LAST_OWNER: 'LAST_OWNER',
  CONFLICT: 'CONFLICT',
  RELEASE_REQUEST_DECIDED: 'RELEASE_REQUEST_DECIDED',
  DATABASE_UNAVAILABLE: 'DATABASE_UNAVAILABLE',
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
};

export interface ToolFailure {
  readonly code: ToolErrorCode;
  readonly message: string;
  /** How to log it: `unexpected` (ours: with the stack), `outage` (a dependency's: with its cause), `refused` (the caller's). */
  readonly kind: 'unexpected' | 'outage' | 'refused';
}

export const internalMessage = (requestId: string): string =>
  `Something went wrong on the server. Try again in a moment; if it keeps failing, report request id ${requestId}.`;

/** The one place a thrown error becomes what the client reads. */
export function toToolFailure(error: unknown, requestId: string): ToolFailure {
  if (isDomainError(error)) {
    const code = DOMAIN_TO_TOOL[error.code];
    if (code !== undefined) return { code, message: error.message, kind: isUnavailable(error) ? 'outage' : 'refused' };
  }
  return { code: ToolErrorCode.Internal, message: internalMessage(requestId), kind: 'unexpected' };
}
