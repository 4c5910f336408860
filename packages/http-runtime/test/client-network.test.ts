import { clientNetwork } from '../src/index.js';

describe('clientNetwork', () => {
  test('an IPv4 address is its own key', () => {
    expect(clientNetwork('192.0.2.1')).toBe('192.0.2.1');
    expect(clientNetwork('192.0.2.2')).toBe('192.0.2.2');
  });

  test('an IPv4-mapped IPv6 address is the IPv4 address, in either spelling', () => {
    expect(clientNetwork('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientNetwork('::FFFF:c000:201')).toBe('192.0.2.1');
    expect(clientNetwork('0:0:0:0:0:ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  test('an IPv6 address is its /64, whatever the spelling', () => {
    const key = clientNetwork('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const spelling of [
      '2001:0DB8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2:0:0:0:1',
      '2001:db8:1:2:ffff:eeee:dddd:cccc',
      '2001:db8:1:2::1.2.3.4',
      '2001:db8:1:2::9%eth0',
    ]) {
      expect(clientNetwork(spelling)).toBe(key);
    }
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(key);
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
  });

  test('what is not an address is kept as is (such clients share its key)', () => {
    expect(clientNetwork('unknown')).toBe('unknown');
    expect(clientNetwork('')).toBe('');
  });
});
