import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkOutboundUrl,
  pinnedLookup,
  webhooksEnvShape,
  webhooksProblems,
} from '../src/index.js';
import { z } from 'zod';

// The outbound rule (webhook endpoints; the auth server's CIMD fetch needs the same): https,
// public addresses only, every address a name resolves to checked. Names are resolved by an
// injected resolver, so no test depends on the network.
const names: Record<string, string[]> = {
  'public.test': ['93.184.215.14'],
  'private.test': ['10.1.2.3'],
  'loopback.test': ['127.0.0.1'],
  'mixed.test': ['93.184.215.14', '192.168.1.20'],
};
const resolve = async (host: string) => {
  const found = names[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};
const production = { allowLoopback: false, resolve };
const development = { allowLoopback: true, resolve };
const reason = async (url: string, rule = production) => {
  const result = await checkOutboundUrl(url, rule);
  return result.ok ? null : result.reason;
};

test('a public https URL passes, with the addresses it was checked at', async () => {
  const result = await checkOutboundUrl('https://public.test/hooks', production);
  expect(result).toEqual({
    ok: true,
    url: new URL('https://public.test/hooks'),
    addresses: [{ address: '93.184.215.14', family: 4 }],
  });
});

test.each([
  ['http in production', 'http://public.test/hooks', 'the URL must use https://.'],
  [
    'a private address',
    'https://private.test/hooks',
    'its host resolves to 10.1.2.3, a private address: events are sent only to public addresses.',
  ],
  [
    'loopback in production',
    'https://loopback.test/hooks',
    'its host resolves to 127.0.0.1, a loopback address: events are sent only to public addresses.',
  ],
  [
    'one private address among public ones',
    'https://mixed.test/',
    'its host resolves to 192.168.1.20, a private address: events are sent only to public addresses.',
  ],
  [
    'a loopback literal',
    'https://127.0.0.1:8443/',
    'its host resolves to 127.0.0.1, a loopback address: events are sent only to public addresses.',
  ],
  [
    'IPv6 loopback',
    'https://[::1]/',
    'its host resolves to ::1, a loopback address: events are sent only to public addresses.',
  ],
  [
    'an IPv4-mapped private address',
    'https://[::ffff:10.0.0.1]/',
    'its host resolves to 10.0.0.1, a private address: events are sent only to public addresses.',
  ],
  [
    'link-local (cloud metadata)',
    'https://169.254.169.254/latest',
    'its host resolves to 169.254.169.254, a link-local address: events are sent only to public addresses.',
  ],
  [
    'unique-local',
    'https://[fd00::1]/',
    'its host resolves to fd00::1, a unique-local address: events are sent only to public addresses.',
  ],
  [
    'carrier-grade NAT',
    'https://100.64.0.1/',
    'its host resolves to 100.64.0.1, a carrier-grade NAT address: events are sent only to public addresses.',
  ],
  [
    'multicast',
    'https://224.0.0.1/',
    'its host resolves to 224.0.0.1, a multicast address: events are sent only to public addresses.',
  ],
  [
    'unspecified',
    'https://0.0.0.0/',
    'its host resolves to 0.0.0.0, the unspecified address: events are sent only to public addresses.',
  ],
  [
    'a name that does not resolve',
    'https://nowhere.test/',
    'its host nowhere.test does not resolve (ENOTFOUND): check the name.',
  ],
  ['another scheme', 'ftp://public.test/', 'the URL must start with https://.'],
])('refused: %s', async (_case, url, expected) => {
  expect(await reason(url)).toBe(expected);
});

test('development allows loopback receivers, over http too, and nothing else private', async () => {
  expect(await reason('http://127.0.0.1:4999/hooks', development)).toBeNull();
  expect(await reason('http://loopback.test/hooks', development)).toBeNull();
  expect(await reason('https://private.test/', development)).toBe(
    'its host resolves to 10.1.2.3, a private address: events are sent only to public addresses.',
  );
  expect(await reason('http://public.test/', development)).toBe(
    'the URL must use https:// (plain http is allowed only for loopback receivers in development).',
  );
});

test('the connection goes to the checked address, whatever the name resolves to later', async () => {
  const server = http.createServer((_req, res) => res.end('reached'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const { port } = server.address() as AddressInfo;
    // "rebinding.test" has no DNS answer at all: only the pinned lookup can connect it.
    const body = await new Promise<string>((done, fail) => {
      http
        .get(
          `http://rebinding.test:${port}/`,
          { lookup: pinnedLookup([{ address: '127.0.0.1', family: 4 }]) },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => done(text));
          },
        )
        .on('error', fail);
    });
    expect(body).toBe('reached');
  } finally {
    server.close();
  }
});

test('production refuses the development-only switch, naming it', () => {
  const env = z.object(webhooksEnvShape).parse({ WEBHOOKS_ALLOW_LOOPBACK: 'true' });
  expect(webhooksProblems(env, { production: true })).toEqual([
    'WEBHOOKS_ALLOW_LOOPBACK: development only (loopback webhook receivers); unset it in production',
  ]);
  expect(webhooksProblems(env, { production: false })).toEqual([]);
});
