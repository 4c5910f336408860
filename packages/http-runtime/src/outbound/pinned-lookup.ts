import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './outbound-url.js';

/**
 * A `lookup` for `http.request` / `https.request` that answers with the addresses already checked
 * (checkOutboundUrl), whatever the name: the connection goes where the check looked. TLS still
 * verifies the certificate against the URL's host name.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, [...addresses]);
      return;
    }
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  };
}
