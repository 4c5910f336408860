import { isIPv4, isIPv6 } from 'node:net';

/*
 * The key under which per-client throttles count a client. One IPv6 subscriber
 * usually holds a whole /64 and picks addresses in it at will, so counting per
 * IPv6 address would give them a fresh budget per request.
 */

/** The 8 groups of an IPv6 address (zone id dropped, `::` expanded, an IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  const [withoutZone = ''] = address.split('%');
  let text = withoutZone.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The throttling key of a client address: an IPv4 address as is (also when written
 * IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address as its /64 prefix in one
 * canonical spelling (`2001:db8:1:2::/64`). Anything else (no address known) is
 * returned unchanged, so such clients share one key rather than escape the throttle.
 */
export function clientNetwork(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
