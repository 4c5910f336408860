import { exportJWK, generateKeyPair } from 'jose';
import { defaultExchange } from '../src/config.js';
import { PRODUCTION_CI_ISSUERS } from '../src/ci/issuers.js';
import { CiIssuerUnavailable, ExchangeRefusal } from '../src/ci/refusals.js';
import { createCiTokenVerifier, type CiTokenVerifierDeps } from '../src/ci/verify-ci-token.js';
import { CiIssuerStandIn, githubClaims, hmacToken, unsignedToken } from './support/ci-issuer.js';

const AUDIENCE = 'https://auth.example.test';
const JWKS = '/.well-known/jwks';
const DISCOVERY = '/.well-known/openid-configuration';

let ci: CiIssuerStandIn;
let stranger: CiIssuerStandIn;

beforeAll(async () => {
  [ci, stranger] = await Promise.all([CiIssuerStandIn.start(), CiIssuerStandIn.start()]);
});
afterAll(async () => {
  await Promise.all([ci.close(), stranger.close()]);
});

const verifierFor = (overrides: Partial<CiTokenVerifierDeps> = {}) =>
  createCiTokenVerifier({
    issuers: [...PRODUCTION_CI_ISSUERS, { issuer: ci.issuer, provider: 'github' }],
    audience: AUDIENCE,
    config: defaultExchange,
    ...overrides,
  });

/** The refusal a verification ends with (fails the test when it succeeds or throws something else). */
async function refusalOf(promise: Promise<unknown>): Promise<ExchangeRefusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExchangeRefusal) return error;
    throw error;
  }
  throw new Error('expected the token to be refused');
}

const valid = (claims: Record<string, unknown> = {}) => ci.mint({ ...githubClaims(), aud: AUDIENCE, ...claims });

test('a valid token: the issuer entry, every claim, the jti and the expiry', async () => {
  const token = await valid({ jti: 'abc-1', exp: Math.floor(Date.now() / 1000) + 120 });
  const verified = await verifierFor()(token);
  expect(verified.issuer).toEqual({ issuer: ci.issuer, provider: 'github' });
  expect(verified.jti).toBe('abc-1');
  expect(verified.claims).toMatchObject({ repository_id: '690001', repository_owner_id: '51001', aud: AUDIENCE });
  expect(verified.expiresAt.getTime()).toBe((verified.claims.exp as number) * 1000);
});

describe('the header, before anything else', () => {
  test('alg none is refused, naming alg, without fetching anything', async () => {
    const before = ci.requests(DISCOVERY) + ci.requests(JWKS);
    const refusal = await refusalOf(verifierFor()(unsignedToken({ ...githubClaims(), iss: ci.issuer, aud: AUDIENCE })));
    expect(refusal.claim).toBe('alg');
    expect(refusal.message).toBe("alg 'none' is not accepted: CI tokens must be signed with RS256");
    expect(ci.requests(DISCOVERY) + ci.requests(JWKS)).toBe(before);
  });

  test('HS256 signed with the issuer public key (algorithm confusion) is refused, naming alg', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await hmacToken({ ...githubClaims(), iss: ci.issuer, aud: AUDIENCE, iat: now, exp: now + 60, jti: 'x' }, await ci.publicKeyPem(), ci.kid);
    const refusal = await refusalOf(verifierFor()(token));
    expect(refusal.claim).toBe('alg');
    expect(refusal.message).toContain("alg 'HS256' is not accepted");
  });

  test.each(['RS384', 'PS256', 'ES256', 'EdDSA'])('alg %s is refused too', async (alg) => {
    const refusal = await refusalOf(verifierFor()(unsignedToken({ iss: ci.issuer }, { alg, kid: ci.kid })));
    expect(refusal.claim).toBe('alg');
  });

  test('a token without kid is refused, naming kid', async () => {
    const refusal = await refusalOf(verifierFor()(unsignedToken({ iss: ci.issuer }, { alg: 'RS256' })));
    expect(refusal).toMatchObject({ claim: 'kid', message: 'kid is missing from the token header' });
  });

  test('something that is not a JWT is refused, naming subject_token', async () => {
    expect((await refusalOf(verifierFor()('not-a-jwt'))).claim).toBe('subject_token');
  });
});

describe('iss: the registry, compared before any key is fetched', () => {
  test('an unknown issuer with valid keys and a valid signature is refused; its keys are never fetched', async () => {
    const token = await stranger.mint({ ...githubClaims(), aud: AUDIENCE });
    const refusal = await refusalOf(verifierFor()(token));
    expect(refusal.claim).toBe('iss');
    expect(refusal.message).toBe(
      `iss '${stranger.issuer}' is not a CI issuer trusted here (https://token.actions.githubusercontent.com, https://gitlab.com, ${ci.issuer})`,
    );
    expect(stranger.requests(DISCOVERY)).toBe(0);
    expect(stranger.requests(JWKS)).toBe(0);
  });

  test('an issuer that differs by a trailing slash is another issuer', async () => {
    const refusal = await refusalOf(verifierFor()(await valid({ iss: `${ci.issuer}/` })));
    expect(refusal.claim).toBe('iss');
  });

  test('the production registry alone does not trust the stand-in', async () => {
    const refusal = await refusalOf(verifierFor({ issuers: PRODUCTION_CI_ISSUERS })(await valid()));
    expect(refusal.claim).toBe('iss');
  });
});

describe('keys: from the discovery document, never from the token', () => {
  test('jku, x5u and jwk headers are ignored: a token signed by a key it embeds or points to is refused as a bad signature', async () => {
    const attacker = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(attacker.publicKey);
    const header = { jku: `${stranger.issuer}${JWKS}`, x5u: `${stranger.issuer}/x5u`, jwk };
    const token = await ci.mint({ ...githubClaims(), aud: AUDIENCE }, { key: attacker.privateKey, header });
    const refusal = await refusalOf(verifierFor()(token));
    expect(refusal.claim).toBe('signature');
    expect(stranger.requests(JWKS)).toBe(0);
    expect(stranger.requests('/x5u')).toBe(0);
  });

  test('a forged signature under the right kid is refused, naming signature', async () => {
    const forger = await generateKeyPair('RS256');
    const refusal = await refusalOf(verifierFor()(await ci.mint({ ...githubClaims(), aud: AUDIENCE }, { key: forger.privateKey })));
    expect(refusal).toMatchObject({ claim: 'signature', message: `signature: the token is not signed by the key '${ci.kid}' of ${ci.issuer}` });
  });

  test('an unknown kid is refused after one refetch of the key set (no cooldown)', async () => {
    const verify = verifierFor({ config: { ...defaultExchange, issuerKeysCooldownMs: 0 } });
    await verify(await valid());
    const fetched = ci.requests(JWKS);
    const refusal = await refusalOf(verify(await ci.mint({ ...githubClaims(), aud: AUDIENCE }, { kid: 'unknown-kid' })));
    expect(refusal).toMatchObject({ claim: 'kid', message: `kid 'unknown-kid' is not one of the signing keys of ${ci.issuer}` });
    expect(ci.requests(JWKS)).toBe(fetched + 1);
  });

  test('within the cooldown, an unknown kid is refused without another fetch', async () => {
    const verify = verifierFor();
    await verify(await valid());
    const fetched = ci.requests(JWKS);
    for (const kid of ['unknown-1', 'unknown-2', 'unknown-3']) {
      expect((await refusalOf(verify(await ci.mint({ ...githubClaims(), aud: AUDIENCE }, { kid })))).claim).toBe('kid');
    }
    expect(ci.requests(JWKS)).toBe(fetched);
  });

  test('a key the issuer publishes later (rotation) verifies after one refetch', async () => {
    const verify = verifierFor({ config: { ...defaultExchange, issuerKeysCooldownMs: 0 } });
    await verify(await valid());
    const kid = await ci.addKey();
    const verified = await verify(await ci.mint({ ...githubClaims(), aud: AUDIENCE }, { kid }));
    expect(verified.claims.repository_id).toBe('690001');
  });

  test('keys are cached: many verifications, one discovery and one key-set fetch, also in parallel', async () => {
    const verify = verifierFor();
    const [discovery, jwks] = [ci.requests(DISCOVERY), ci.requests(JWKS)];
    const tokens = await Promise.all(Array.from({ length: 20 }, () => valid()));
    await Promise.all(tokens.map((token) => verify(token)));
    expect(ci.requests(DISCOVERY)).toBe(discovery + 1);
    expect(ci.requests(JWKS)).toBe(jwks + 1);
  });

  test('an issuer that is down is an outage (CiIssuerUnavailable), not a refusal; it is tried again next time', async () => {
    const verify = verifierFor();
    ci.available = false;
    try {
      await expect(verify(await valid())).rejects.toBeInstanceOf(CiIssuerUnavailable);
    } finally {
      ci.available = true;
    }
    expect((await verify(await valid())).jti).toEqual(expect.any(String));
  });

  test('an issuer that never answers is an outage once the request deadline passes', async () => {
    const verify = verifierFor({ config: { ...defaultExchange, issuerTimeoutMs: 200 } });
    ci.hung = true;
    try {
      await expect(verify(await valid())).rejects.toThrow(/CI issuer .* is unavailable: its discovery document could not be read/);
    } finally {
      ci.hung = false;
    }
  });

  test('a discovery document naming another issuer, or keys on another origin, is an outage', async () => {
    const lying: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : input.toString();
      if (url.endsWith(DISCOVERY)) return Response.json({ issuer: ci.issuer, jwks_uri: `${stranger.issuer}${JWKS}` });
      return fetch(input, init);
    };
    await expect(verifierFor({ fetch: lying })(await valid())).rejects.toThrow("jwks_uri is missing or not on the issuer's origin");
    expect(stranger.requests(JWKS)).toBe(0);
    const other: typeof fetch = async (input, init) =>
      (input instanceof Request ? input.url : input.toString()).endsWith(DISCOVERY) ? Response.json({ issuer: stranger.issuer, jwks_uri: `${ci.issuer}${JWKS}` }) : fetch(input, init);
    await expect(verifierFor({ fetch: other })(await valid())).rejects.toThrow('its discovery document names another issuer');
  });
});

describe('aud', () => {
  test('another audience is refused, naming aud', async () => {
    const refusal = await refusalOf(verifierFor()(await valid({ aud: 'https://mcp.example.test/mcp' })));
    expect(refusal).toMatchObject({
      claim: 'aud',
      message: `aud 'https://mcp.example.test/mcp' is not this server: request the CI token with audience '${AUDIENCE}'`,
    });
  });

  test('two audiences are refused even when one is ours', async () => {
    const refusal = await refusalOf(verifierFor()(await valid({ aud: [AUDIENCE, 'https://other.example'] })));
    expect(refusal).toMatchObject({ claim: 'aud', message: `aud must be a single audience, '${AUDIENCE}'; the token names 2` });
    expect((await refusalOf(verifierFor()(await valid({ aud: [AUDIENCE] })))).claim).toBe('aud');
  });

  test('a missing aud is refused', async () => {
    expect((await refusalOf(verifierFor()(await valid({ aud: undefined })))).claim).toBe('aud');
  });
});

describe('times, on an injected clock (60 s leeway)', () => {
  const T = 1_900_000_000;
  const at = (seconds: number) => () => seconds * 1000;

  test('expired: refused past exp + 60 s, accepted within the leeway', async () => {
    const token = await valid({ iat: T - 600, exp: T });
    expect(await refusalOf(verifierFor({ now: at(T + 60) })(token))).toMatchObject({ claim: 'exp', message: 'exp: the token expired at 2030-03-17T17:46:40.000Z' });
    expect((await verifierFor({ now: at(T + 59) })(token)).jti).toEqual(expect.any(String));
  });

  test('not yet valid: refused before nbf - 60 s', async () => {
    const token = await valid({ iat: T, nbf: T + 120, exp: T + 600 });
    expect((await refusalOf(verifierFor({ now: at(T) })(token))).claim).toBe('nbf');
    expect((await verifierFor({ now: at(T + 60) })(token)).jti).toEqual(expect.any(String));
  });

  test('issued in the future: refused, naming iat', async () => {
    const token = await valid({ iat: T + 120, exp: T + 600 });
    expect((await refusalOf(verifierFor({ now: at(T) })(token))).claim).toBe('iat');
  });

  test('a lifetime over an hour is refused, naming exp; exactly an hour is accepted', async () => {
    expect(await refusalOf(verifierFor({ now: at(T) })(await valid({ iat: T, exp: T + 3601 })))).toMatchObject({
      claim: 'exp',
      message: 'exp: the token lives 3601 s from iat, more than the 3600 s accepted',
    });
    expect((await verifierFor({ now: at(T) })(await valid({ iat: T, exp: T + 3600 }))).jti).toEqual(expect.any(String));
  });

  test('missing exp, iat or jti are refused, each named', async () => {
    expect((await refusalOf(verifierFor({ now: at(T) })(await valid({ iat: T, exp: undefined })))).claim).toBe('exp');
    expect((await refusalOf(verifierFor({ now: at(T) })(await valid({ iat: undefined, exp: T + 60 })))).claim).toBe('iat');
    expect((await refusalOf(verifierFor({ now: at(T) })(await valid({ iat: T, exp: T + 60, jti: undefined })))).claim).toBe('jti');
  });
});

test('values from the token are shown safely in descriptions (no quotes, backslashes or control characters)', async () => {
  const refusal = await refusalOf(verifierFor()(await valid({ aud: 'a"b\\c\nd' })));
  expect(refusal.message).toContain("aud 'a?b?c?d' is not this server");
});
