export const AccountErrorCode = {
  InvalidEmail: 'INVALID_EMAIL',
  WeakPassword: 'WEAK_PASSWORD',
  EmailTaken: 'EMAIL_TAKEN',
} as const;

export type AccountErrorCode = (typeof AccountErrorCode)[keyof typeof AccountErrorCode];

/** A sign-up the person can fix; the message is written for them. */
export class AccountError extends Error {
  override readonly name = 'AccountError';
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
  }
}
