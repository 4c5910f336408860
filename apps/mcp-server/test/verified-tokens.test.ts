import { withVerifiedTokenCache } from '../src/auth/verified-tokens.js';
import { InvalidTokenError, type TokenClaims, type TokenVerifier } from '../src/auth/token-verifier.js';

const claimsExpiringAt = (expiresAt: number): TokenClaims => ({
  subject: 'user',
  scopes: ['mcp:read'],
  clientId: 'client',
  grantId: 'grant',
  tokenId: 'jti',
  expiresAt: new Date(expiresAt),
});

/** A verifier that accepts "good-*" tokens (expiring at `expiresAt`) and counts its calls. */
function countingVerifier(expiresAt: number): TokenVerifier & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async verify(token) {
      calls.push(token);
      if (!token.startsWith('good')) throw new InvalidTokenError('The access token signature or format is invalid.');
      return claimsExpiringAt(expiresAt);
    },
  };
}

describe('the verified-token cache', () => {
  test('verifies a token once and answers later requests with the same claims', async () => {
    const inner = countingVerifier(Date.now() + 60_000);
    const tokens = withVerifiedTokenCache(inner, { maxAgeSeconds: 300 });
    const first = await tokens.verify('good-a');
    expect(await tokens.verify('good-a')).toBe(first);
    expect(inner.calls).toEqual(['good-a']);
  });

  test('never answers for another token', async () => {
    const inner = countingVerifier(Date.now() + 60_000);
    const tokens = withVerifiedTokenCache(inner, { maxAgeSeconds: 300 });
    await tokens.verify('good-a');
    await tokens.verify('good-b');
    expect(inner.calls).toEqual(['good-a', 'good-b']);
  });

  test('verifies again once the token has expired (and the verifier then refuses it)', async () => {
    let clock = 1_000_000;
    const inner = countingVerifier(clock + 10_000);
    const tokens = withVerifiedTokenCache(inner, { maxAgeSeconds: 300, now: () => clock });
    await tokens.verify('good-a');
    clock += 10_000;
    await tokens.verify('good-a');
    expect(inner.calls).toEqual(['good-a', 'good-a']);
  });

  test('verifies again after the maximum age, however long the token still lives', async () => {
    let clock = 1_000_000;
    const inner = countingVerifier(clock + 30 * 24 * 3600_000);
    const tokens = withVerifiedTokenCache(inner, { maxAgeSeconds: 300, now: () => clock });
    await tokens.verify('good-a');
    clock += 299_999;
    await tokens.verify('good-a');
    expect(inner.calls).toEqual(['good-a']);
    clock += 1;
    await tokens.verify('good-a');
    expect(inner.calls).toEqual(['good-a', 'good-a']);
  });

  test('does not remember refusals', async () => {
    const inner = countingVerifier(Date.now() + 60_000);
    const tokens = withVerifiedTokenCache(inner, { maxAgeSeconds: 300 });
    await expect(tokens.verify('bad')).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(tokens.verify('bad')).rejects.toBeInstanceOf(InvalidTokenError);
    expect(inner.calls).toEqual(['bad', 'bad']);
  });
});
