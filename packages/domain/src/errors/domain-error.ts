/**
 * Every failure the domain reports is a DomainError with a stable code. Its HTTP
 * status is the domain's one table (http-status.ts), read by every HTTP edge; the
 * MCP edge turns codes into tool errors. Messages are written for the person
 * reading them and say what to do next.
 */
export const ErrorCode = {
  InvalidInput: 'INVALID_INPUT',
  NotFound: 'NOT_FOUND',
  NameTaken: 'NAME_TAKEN',
  AmbiguousOrganization: 'AMBIGUOUS_ORGANIZATION',
  TooManyTags: 'TOO_MANY_TAGS',
  UploadNotReceived: 'UPLOAD_NOT_RECEIVED',
  UploadTooLarge: 'UPLOAD_TOO_LARGE',
  UploadNotHtml: 'UPLOAD_NOT_HTML',
  UploadExpired: 'UPLOAD_EXPIRED',
  EnvironmentInUse: 'ENVIRONMENT_IN_USE',
  EnvironmentProtected: 'ENVIRONMENT_PROTECTED',
  Forbidden: 'FORBIDDEN',
  LimitReached: 'LIMIT_REACHED',
  InvitationExpired: 'INVITATION_EXPIRED',
  InvitationRevoked: 'INVITATION_REVOKED',
  InvitationUsed: 'INVITATION_USED',
  AlreadyMember: 'ALREADY_MEMBER',
  /** The organization's last owner would be gone (left, removed, demoted). */
  LastOwner: 'LAST_OWNER',
  /** What the caller saw changed meanwhile (e.g. a member's role): reload and decide again. */
  Conflict: 'CONFLICT',
  ReleaseRequestDecided: 'RELEASE_REQUEST_DECIDED',
  /** The database cannot be reached or stopped answering: nothing was decided, the same call may be retried. */
  DatabaseUnavailable: 'DATABASE_UNAVAILABLE',
  /** The object store, likewise. */
  StoreUnavailable: 'STORE_UNAVAILABLE',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

export const isDomainError = (error: unknown): error is DomainError =>
  error instanceof DomainError;
