import type { Credentials, DomainDeps, User } from '@cp/domain';
import { clientNetwork } from '@cp/http-runtime';
import { isInvitedSignIn } from '../security/invitation-exemption.js';
import { admitSignIn, signInFailed, signInSucceeded } from '../security/sign-in-throttle.js';
import type { Throttles } from '../security/throttle.js';
import {
  decoyHash,
  hashPassword,
  isWeakerThan,
  PASSWORD_MAX_LENGTH,
  type ScryptCost,
  verifyPassword,
} from './passwords.js';

export interface SignInDeps {
  readonly domain: Pick<DomainDeps, 'repos' | 'clock'>;
  readonly credentials: Credentials;
  readonly throttles: Throttles;
  /** The cost new hashes get; a stored hash made with less is rehashed on success. */
  readonly passwordCost: ScryptCost;
}

export type SignInResult =
  | { readonly ok: true; readonly user: User }
  | { readonly ok: false; readonly reason: 'invalid' }
  | { readonly ok: false; readonly reason: 'throttled'; readonly retryAfterSeconds: number };

/** The throttle key of an address, whether or not it has an account. */
const accountKey = (email: string): string => email.trim().toLowerCase();

/**
 * Checks an email and password. The attempt is counted before the password is
 * checked (security/sign-in-throttle.ts says who is refused); one presenting a pending
 * invitation for its email is spared the per-network budget (invitation-exemption.ts). Unknown addresses cost
 * the same hashing as known ones and fail with the same answer, so neither the reply
 * nor its timing says whether an account exists.
 */
export async function signIn(
  { email, password, ip, invitation = '' }: { email: string; password: string; ip: string; invitation?: string },
  deps: SignInDeps,
): Promise<SignInResult> {
  const attempt = {
    account: accountKey(email),
    network: clientNetwork(ip),
    invited: await isInvitedSignIn({ token: invitation, email }, deps),
  };
  const retryAfterSeconds = await admitSignIn(deps.throttles, attempt);
  if (retryAfterSeconds > 0) return { ok: false, reason: 'throttled', retryAfterSeconds };

  const user =
    attempt.account.length > 0 && password.length <= PASSWORD_MAX_LENGTH
      ? await deps.domain.repos.users.findByEmail(email.trim())
      : null;
  const hash = user === null ? null : await deps.credentials.findPasswordHash(user.id);
  const matches = await verifyPassword(
    password.slice(0, PASSWORD_MAX_LENGTH),
    hash ?? (await decoyHash(deps.passwordCost)),
  );
  if (user === null || hash === null || !matches) {
    await signInFailed(deps.throttles, attempt);
    return { ok: false, reason: 'invalid' };
  }
  await signInSucceeded(deps.throttles, attempt);
  if (isWeakerThan(hash, deps.passwordCost)) await upgradeHash(user, hash, password, deps);
  return { ok: true, user };
}

/** Rehashes at the current cost: the right password is only known here, at a successful sign-in. */
async function upgradeHash(
  user: User,
  hash: string,
  password: string,
  deps: SignInDeps,
): Promise<void> {
  const upgraded = await hashPassword(password, deps.passwordCost);
  // Refused when the hash changed meanwhile (a parallel sign-in upgraded it first): the newer one stays.
  await deps.credentials.replacePasswordHash(user.id, hash, upgraded, deps.domain.clock.now());
}
