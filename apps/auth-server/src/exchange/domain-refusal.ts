import { isCredentialRefused } from '@cp/domain';
import { ExchangeRefusal } from '../ci/refusals.js';

/**
 * Runs a domain step of the exchange; the domain's refusals (CredentialRefused: a policy that does not
 * match, a replayed jti, a revoked or expired token) become ExchangeRefusals naming their claim (an API
 * token's refusals name none: they are about the `subject_token`). Anything else, outages included, goes on.
 */
export async function asExchangeRefusal<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isCredentialRefused(error)) throw new ExchangeRefusal(error.claim ?? 'subject_token', error.message);
    throw error;
  }
}
