import { API_TOKEN_LIMITS, apiTokenPrefix, apiTokenProblem, hashApiToken, newApiTokenSecret } from '../src/rules/api-tokens.js';

// Fixed vectors: the CRC-32 (big-endian, base64url) of 'cpt_' + 43 'A's is 0x7babc296 → 'e6vClg'.
const ALL_A = `cpt_${'A'.repeat(43)}e6vClg`;
// Bytes 0..31 in base64url, CRC-32 0x982a7779 → 'mCp3eQ'.
const COUNTING = 'cpt_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8mCp3eQ';

test('fixed vectors pass the format and checksum check', () => {
  expect(apiTokenProblem(ALL_A)).toBeNull();
  expect(apiTokenProblem(COUNTING)).toBeNull();
  expect(ALL_A).toHaveLength(53);
});

test('a new secret is cpt_ + 49 base64url characters whose checksum holds, and never the same twice', () => {
  const secret = newApiTokenSecret();
  expect(secret).toMatch(/^cpt_[A-Za-z0-9_-]{49}$/);
  expect(apiTokenProblem(secret)).toBeNull();
  expect(newApiTokenSecret()).not.toBe(secret);
});

test('a changed, lost or swapped character is caught by the checksum, before any lookup', () => {
  const checksum = 'This is not an API token: its checksum does not match (a character was changed or lost).';
  expect(apiTokenProblem(`${ALL_A.slice(0, 10)}B${ALL_A.slice(11)}`)).toBe(checksum);
  expect(apiTokenProblem(`${COUNTING.slice(0, 5)}${COUNTING[6]}${COUNTING[5]}${COUNTING.slice(7)}`)).toBe(checksum);
  expect(apiTokenProblem(`${ALL_A.slice(0, -1)}h`)).toBe(checksum);
});

test('the wrong prefix, length or alphabet is refused with what a token looks like', () => {
  expect(apiTokenProblem(`cpk_${'A'.repeat(49)}`)).toBe('This is not an API token: API tokens start with cpt_.');
  const shape = 'This is not an API token: an API token is cpt_ followed by 49 letters, digits, - or _ (53 characters in all).';
  expect(apiTokenProblem(ALL_A.slice(0, -1))).toBe(shape);
  expect(apiTokenProblem(`${ALL_A} `)).toBe(shape);
  expect(apiTokenProblem(`cpt_${'A'.repeat(42)}+e6vClg`)).toBe(shape);
});

test('the hash is the SHA-256 hex of the secret, and the prefix its first 12 characters', () => {
  expect(hashApiToken(ALL_A)).toMatch(/^[0-9a-f]{64}$/);
  expect(hashApiToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(apiTokenPrefix(COUNTING)).toBe('cpt_AAECAwQF');
});

test('the documented limits', () => {
  expect(API_TOKEN_LIMITS).toMatchObject({
    nameMaxLength: 64,
    expiryDaysMin: 1,
    expiryDaysMax: 90,
    expiryDaysDefault: 30,
    tokensPerCreator: 20,
    ciPoliciesPerOrganization: 20,
    refPatternsPerPolicy: 20,
    refPatternMaxLength: 128,
    workflowPathMaxLength: 256,
    accessTokenSeconds: 900,
  });
});
