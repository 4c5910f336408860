import type { Throttles } from './throttle.js';

/** Whose attempt it is: the email as the throttles key it, and the client network it came from. */
export interface SignInAttempt {
  readonly account: string;
  readonly network: string;
  /** It presents a pending invitation for this email: the per-network budget is not spent (invitation-exemption.ts). */
  readonly invited?: boolean;
}

const pairKey = ({ account, network }: SignInAttempt): string => `${account}\n${network}`;

/**
 * Counts a sign-in attempt before its password is checked, so parallel guesses get
 * no more checks than sequential ones. Returns the seconds to wait when refused, else 0.
 *
 * An account's owner cannot be locked out from elsewhere: attempts count per
 * (account, network) and per network, so another network's failures never refuse
 * the owner's. The account-wide ceiling bounds a distributed attacker: once spent,
 * a network that has already tried this account in its window is refused, and a
 * network that has not gets its attempt (README "Throttling").
 */
export async function admitSignIn(throttles: Throttles, attempt: SignInAttempt): Promise<number> {
  const spared = { count: 0, retryAfterSeconds: 0, windowEndsInSeconds: 0 };
  const [pair, network] = await Promise.all([
    throttles.loginPerAccountNetwork.hit(pairKey(attempt)),
    attempt.invited ? spared : throttles.loginPerNetwork.hit(attempt.network),
  ]);
  let wait = Math.max(pair.retryAfterSeconds, network.retryAfterSeconds);
  if (wait === 0 && pair.count > 1) {
    // Refused until the ceiling's window ends, or until this network's own window does (it is then untried again).
    const ceiling = await throttles.loginPerAccount.retryAfter(attempt.account);
    wait = ceiling === 0 ? 0 : Math.min(ceiling, pair.windowEndsInSeconds);
  }
  if (wait > 0) {
    // A refused attempt checks no password: give back what the budgets that let it through counted.
    await Promise.all([
      pair.retryAfterSeconds === 0
        ? throttles.loginPerAccountNetwork.refund(pairKey(attempt))
        : undefined,
      network.retryAfterSeconds === 0 && !attempt.invited
        ? throttles.loginPerNetwork.refund(attempt.network)
        : undefined,
    ]);
  }
  return wait;
}

/** A right password: the network's failures for this account are forgotten, and a success costs the network nothing. */
export async function signInSucceeded(throttles: Throttles, attempt: SignInAttempt): Promise<void> {
  await Promise.all([
    throttles.loginPerAccountNetwork.reset(pairKey(attempt)),
    attempt.invited ? undefined : throttles.loginPerNetwork.refund(attempt.network),
  ]);
}

/** A wrong password (or no such account): it counts against the account's ceiling too. */
export async function signInFailed(throttles: Throttles, attempt: SignInAttempt): Promise<void> {
  await throttles.loginPerAccount.hit(attempt.account);
}
