import type { ErrorCode } from './domain-error.js';

/** The client-error statuses a domain rule can answer with, and 503 for a dependency that is down. */
export type DomainHttpStatus = 400 | 403 | 404 | 409 | 410 | 413 | 422 | 503;

/**
 * The HTTP status of every error code, for every HTTP edge (dashboard, auth
 * server, delivery API). Exhaustive: a new code does not compile until it has one.
 */
export const HTTP_STATUS: { readonly [Code in ErrorCode]: DomainHttpStatus } = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  NAME_TAKEN: 409,
  AMBIGUOUS_ORGANIZATION: 409,
  // A limit on the edit the caller sent, like other input rules (not a conflict with stored state).
  TOO_MANY_TAGS: 400,
  // The file is not at the presigned URL yet: the caller's next step is the PUT.
  UPLOAD_NOT_RECEIVED: 409,
  UPLOAD_TOO_LARGE: 413,
  UPLOAD_NOT_HTML: 422,
  UPLOAD_EXPIRED: 410,
  ENVIRONMENT_IN_USE: 409,
  // The caller's role is not enough: a permission refusal, like FORBIDDEN.
  ENVIRONMENT_PROTECTED: 403,
  FORBIDDEN: 403,
  // A count the organization already holds at its limit: free one first.
  LIMIT_REACHED: 409,
  // The link was good once: Gone, as for an expired upload.
  INVITATION_EXPIRED: 410,
  INVITATION_REVOKED: 410,
  // Used by someone (perhaps the caller, in another tab): a conflict with stored state.
  INVITATION_USED: 409,
  ALREADY_MEMBER: 409,
  // The organization's state refuses it (it would lose its last owner), whoever asks.
  LAST_OWNER: 409,
  CONFLICT: 409,
  // Someone approved or declined the request first: the message says who.
  RELEASE_REQUEST_DECIDED: 409,
  // Not the caller's fault and not lasting: edges add Retry-After (RETRY_AFTER_SECONDS).
  DATABASE_UNAVAILABLE: 503,
  STORE_UNAVAILABLE: 503,
};

/** How long edges tell clients to wait before retrying a DATABASE_UNAVAILABLE (Retry-After, tool messages). */
export const RETRY_AFTER_SECONDS = 5;

export const httpStatusOf = (code: ErrorCode): DomainHttpStatus => HTTP_STATUS[code];
