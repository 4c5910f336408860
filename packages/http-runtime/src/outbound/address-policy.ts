import ipaddr from 'ipaddr.js';

/**
 * ipaddr.js's name for the range an address falls in (`unicast` for an ordinary public one,
 * else `private`, `loopback`, `linkLocal`, `uniqueLocal`, `carrierGradeNat`, `multicast`,
 * `unspecified`, `reserved`, ...). IPv4-mapped IPv6 addresses are classified as the IPv4 address.
 */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

/** Only ordinary unicast addresses are public; every special-purpose range is refused. */
export const isPublicAddress = (address: string): boolean => addressRange(address) === 'unicast';

export const isLoopbackAddress = (address: string): boolean => addressRange(address) === 'loopback';

const WORDS: Record<string, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
};

/** The range in words, for messages ("a private address"). */
export const describeRange = (range: string): string =>
  WORDS[range] ?? `a reserved address (${range})`;

/** The address as people read it: an IPv4-mapped IPv6 address as its IPv4 address. */
export const plainAddress = (address: string): string => ipaddr.process(address).toString();
