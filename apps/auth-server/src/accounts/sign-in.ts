import type { Credentials, DomainDeps, User } from '@cp/domain';
import type { Throttles } from '../security/throttle.js';
import { decoyHash, PASSWORD_MAX_LENGTH, verifyPassword } from './passwords.js';

export interface SignInDeps {
  readonly domain: Pick<DomainDeps, 'repos'>;
  readonly credentials: Credentials;
  readonly throttles: Throttles;
}

export type SignInResult =
  | { readonly ok: true; readonly user: User }
  | { readonly ok: false; readonly reason: 'invalid' }
  | { readonly ok: false; readonly reason: 'throttled'; readonly retryAfterSeconds: number };

/** The throttle key of an address, whether or not it has an account. */
const accountKey = (email: string): string => email.trim().toLowerCase();

/**
 * Checks an email and password. Failures count per address and per IP; over
 * either limit every attempt is refused (even a right password) until the window
 * ends. Unknown addresses cost the same hashing as known ones and fail with the
 * same answer, so neither the reply nor its timing says whether an account exists.
 */
export async function signIn(
  { email, password, ip }: { email: string; password: string; ip: string },
  deps: SignInDeps,
): Promise<SignInResult> {
  const key = accountKey(email);
  const waits = await Promise.all([deps.throttles.loginPerAccount.retryAfter(key), deps.throttles.loginPerIp.retryAfter(ip)]);
  const retryAfterSeconds = Math.max(...waits);
  if (retryAfterSeconds > 0) return { ok: false, reason: 'throttled', retryAfterSeconds };

  const user = key.length > 0 && password.length <= PASSWORD_MAX_LENGTH ? await deps.domain.repos.users.findByEmail(email.trim()) : null;
  const hash = user === null ? null : await deps.credentials.findPasswordHash(user.id);
  const matches = await verifyPassword(password.slice(0, PASSWORD_MAX_LENGTH), hash ?? (await decoyHash()));
  if (user !== null && hash !== null && matches) {
    await deps.throttles.loginPerAccount.reset(key);
    return { ok: true, user };
  }
  await Promise.all([deps.throttles.loginPerAccount.hit(key), deps.throttles.loginPerIp.hit(ip)]);
  return { ok: false, reason: 'invalid' };
}
