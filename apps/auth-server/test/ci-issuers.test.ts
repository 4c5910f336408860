import { ciIssuerRegistry, findCiIssuer, PRODUCTION_CI_ISSUERS } from '../src/ci/issuers.js';

test('the production registry is exactly GitHub Actions and gitlab.com, and cannot be changed at run time', () => {
  expect(PRODUCTION_CI_ISSUERS).toEqual([
    { issuer: 'https://token.actions.githubusercontent.com', provider: 'github' },
    { issuer: 'https://gitlab.com', provider: 'gitlab' },
  ]);
  expect(Object.isFrozen(PRODUCTION_CI_ISSUERS)).toBe(true);
  for (const entry of PRODUCTION_CI_ISSUERS) expect(Object.isFrozen(entry)).toBe(true);
  expect(() => (PRODUCTION_CI_ISSUERS as unknown as unknown[]).push({ issuer: 'https://evil.example', provider: 'github' })).toThrow(TypeError);
});

test('iss is compared exactly: no trailing slash, case or path variants', () => {
  const registry = ciIssuerRegistry([]);
  expect(findCiIssuer(registry, 'https://token.actions.githubusercontent.com')?.provider).toBe('github');
  expect(findCiIssuer(registry, 'https://gitlab.com')?.provider).toBe('gitlab');
  for (const near of ['https://token.actions.githubusercontent.com/', 'https://GITLAB.com', 'https://gitlab.com/x', 'http://gitlab.com', 'https://gitlab.com.evil.example']) {
    expect(findCiIssuer(registry, near)).toBeUndefined();
  }
});

test('development issuers are added after the production ones', () => {
  const registry = ciIssuerRegistry([{ issuer: 'http://127.0.0.1:4600', provider: 'gitlab' }]);
  expect(registry.map((entry) => entry.issuer)).toEqual(['https://token.actions.githubusercontent.com', 'https://gitlab.com', 'http://127.0.0.1:4600']);
  expect(findCiIssuer(registry, 'http://127.0.0.1:4600')?.provider).toBe('gitlab');
  expect(Object.isFrozen(registry)).toBe(true);
});
