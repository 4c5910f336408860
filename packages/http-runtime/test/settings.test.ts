import { z } from 'zod';
import { defineSettings, EnvError, keyList, publicUrlProblems, serviceEnvShape, serviceSettings, trustProxy } from '../src/index.js';

/* src/settings: the pieces every service's settings are made of. */

const problemsOf = (parse: () => unknown): readonly string[] => {
  try {
    parse();
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  throw new Error('expected the settings to be refused');
};

describe('defineSettings', () => {
  const settings = defineSettings({ ...serviceEnvShape, DEMO_PORT: z.coerce.number().int().default(1) });

  test('names: every variable, for docker/check.mjs', () => {
    expect(settings.names).toEqual(['NODE_ENV', 'LOG_LEVEL', 'SHUTDOWN_GRACE_SECONDS', 'DEMO_PORT']);
  });

  test('empty values count as unset; defaults apply', () => {
    const env = settings.parse({ DEMO_PORT: '', LOG_LEVEL: '' });
    expect(env.DEMO_PORT).toBe(1);
    expect(serviceSettings(env)).toEqual({ logLevel: 'info', shutdownGraceSeconds: 10 });
  });

  test('every bad variable is named, in one EnvError', () => {
    const parse = () => settings.parse({ DEMO_PORT: 'x', SHUTDOWN_GRACE_SECONDS: '301' });
    expect(problemsOf(parse)).toEqual(['SHUTDOWN_GRACE_SECONDS: Too big: expected number to be <=300', 'DEMO_PORT: Invalid input: expected number, received NaN']);
    expect(parse).toThrow('Invalid configuration:\n  SHUTDOWN_GRACE_SECONDS: Too big');
  });
});

describe('trustProxy', () => {
  const parse = (value?: string) => z.object({ TRUST: trustProxy }).safeParse(value === undefined ? {} : { TRUST: value });

  test.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['loopback', 'loopback'],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
    ['172.16.0.1,fd00::/8,uniquelocal', '172.16.0.1,fd00::/8,uniquelocal'],
    ['10.0.0.0/255.0.0.0', '10.0.0.0/255.0.0.0'],
  ])('%p is given to Express as %p', (value, expected) => {
    expect(parse(value)).toMatchObject({ success: true, data: { TRUST: expected } });
  });

  test.each(['yes', 'on', '-1', '10.0.0.0/33', 'fd00::/129', 'loopback,', '10.0.0.0/8/1', 'proxy.internal'])('%p is refused', (value) => {
    const parsed = parse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^must be true, false, a hop count, or a comma-separated list/);
  });
});

test('keyList: comma-separated keys of at least 32 characters', () => {
  const keys = z.object({ KEYS: keyList });
  expect(keys.parse({ KEYS: ` ${'a'.repeat(32)} , ${'b'.repeat(40)}` }).KEYS).toEqual(['a'.repeat(32), 'b'.repeat(40)]);
  expect(keys.safeParse({ KEYS: `${'a'.repeat(32)},short` }).success).toBe(false);
  expect(keys.safeParse({ KEYS: ' , ' }).success).toBe(false);
});

describe('publicUrlProblems', () => {
  test('no query or fragment, ever', () => {
    expect(publicUrlProblems('X_URL', new URL('http://localhost:1/mcp?a=1'))).toEqual(['X_URL: must not carry a query or a fragment']);
    expect(publicUrlProblems('X_URL', new URL('https://example.com/mcp'))).toEqual([]);
  });

  test('an origin, when asked for one', () => {
    expect(publicUrlProblems('X_URL', new URL('https://example.com/app'), { origin: 'https://x.example.com' })).toEqual([
      'X_URL: must be an origin without a path, e.g. https://x.example.com',
    ]);
    expect(publicUrlProblems('X_URL', new URL('https://example.com/'), { origin: 'https://x.example.com' })).toEqual([]);
  });

  test('https in production, loopback addresses excepted', () => {
    expect(publicUrlProblems('X_URL', new URL('http://example.com'), { https: true })).toEqual([
      'X_URL: must be an https URL in production (loopback addresses excepted)',
    ]);
    for (const url of ['http://localhost:4000', 'http://127.0.0.1:4000', 'http://[::1]:4000', 'https://example.com']) {
      expect(publicUrlProblems('X_URL', new URL(url), { https: true })).toEqual([]);
    }
  });
});
