import { DomainError, ErrorCode, isDomainError, registerUser, type DomainDeps, type User } from '@cp/domain';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type ScryptCost } from './passwords.js';

export interface SignUpDeps {
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly passwordCost: ScryptCost;
}

const refused = (code: ErrorCode, field: 'email' | 'password', message: string): DomainError =>
  new DomainError(code, message, { field });

/**
 * Creates the user with a personal organization holding `staging` and `prod`
 * and the password hash, in one write through the domain: a failure leaves
 * neither an account without a password nor a password without an account.
 * Refusals are domain errors whose messages are written for the sign-up form.
 */
export async function signUp({ email, password }: { email: string; password: string }, deps: SignUpDeps): Promise<User> {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw refused(ErrorCode.InvalidInput, 'password', `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw refused(ErrorCode.InvalidInput, 'password', `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`);
  }
  const passwordHash = await hashPassword(password, deps.passwordCost);
  try {
    return await registerUser({ email, passwordHash }, deps.domain);
  } catch (error) {
    if (isDomainError(error) && error.code === ErrorCode.InvalidInput) {
      throw refused(ErrorCode.InvalidInput, 'email', 'Enter an email address such as name@example.com.');
    }
    if (isDomainError(error) && error.code === ErrorCode.NameTaken) {
      throw refused(ErrorCode.NameTaken, 'email', 'An account with this email already exists. Sign in instead.');
    }
    throw error;
  }
}
