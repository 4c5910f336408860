import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isLoopbackAddress, isPublicAddress, type ResolvedAddress } from '@cp/http-runtime';
import { CimdRefusal } from './refusal.js';

/** Every address a host name resolves to (tests inject one that maps names to chosen addresses). */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: ResolveHost = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/**
 * The same address rule as every outbound request of the platform (webhooks too): only
 * ordinary public unicast addresses, loopback only with the development setting.
 */
const addressAllowed = (address: string, allowLoopback: boolean): boolean =>
  isPublicAddress(address) || (allowLoopback && isLoopbackAddress(address));

/** Every address the host resolves to, all of them allowed; else a refusal. */
export async function checkedAddresses(
  url: URL,
  allowLoopback: boolean,
  resolveHost: ResolveHost,
): Promise<readonly ResolvedAddress[]> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: readonly ResolvedAddress[];
  try {
    // An address in the URL is the address: no resolver involved.
    addresses =
      isIP(hostname) === 0
        ? await resolveHost(hostname)
        : [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    throw new CimdRefusal(
      'dns-failed',
      `the host of the client metadata document (${url.host}) could not be resolved; check the client_id URL`,
    );
  }
  // One disallowed address refuses the name: a name mixing public and private addresses is not fetched.
  if (!addresses.every((entry) => addressAllowed(entry.address, allowLoopback))) {
    throw new CimdRefusal(
      'address-refused',
      `the host of the client metadata document (${url.host}) resolves to a private, loopback or otherwise non-public address, which this server does not fetch from; serve the document from a public address`,
    );
  }
  return addresses;
}
