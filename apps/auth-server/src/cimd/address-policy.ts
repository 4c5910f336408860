import ipaddr from 'ipaddr.js';

/**
 * Whether the server may connect to this address to fetch a client metadata document.
 * Only ipaddr.js's `unicast` range counts as public: private, loopback, link-local,
 * unique-local, carrier-grade NAT, multicast, broadcast, unspecified, documentation and
 * other reserved ranges, and the IPv6 forms that embed an IPv4 address (NAT64, 6to4,
 * Teredo) are all refused. IPv4-mapped IPv6 addresses are judged as the IPv4 address.
 * Loopback is allowed only with the development setting.
 */
export function addressAllowed(address: string, options: { allowLoopback: boolean }): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (options.allowLoopback && range === 'loopback');
}
