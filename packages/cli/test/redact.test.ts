import { Redactor, secretPrefix } from '../src/cli/redact.js';

// The net under every line the CLI writes (src/cli/output.ts).
test('a remembered secret becomes its prefix wherever it appears', () => {
  const redactor = new Redactor();
  const refreshToken = 'Zr1pX8vQ2mN5kL0aB7cD9eF3gH6jK4sT';
  redactor.remember(refreshToken);
  expect(redactor.redact(`{"refresh":"${refreshToken}","again":"${refreshToken}"}`)).toBe(`{"refresh":"Zr1pX8vQ2mN5…","again":"Zr1pX8vQ2mN5…"}`);
});

test('anything shaped like a JWT or an API token is cut to its prefix, even when never remembered', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZXBvOmFjbWUvd2ViIn0.c2lnbmF0dXJl';
  const apiToken = `cpt_${'a'.repeat(43)}AbCdEf`;
  const redacted = new Redactor().redact(`server said: bad token ${jwt} (or ${apiToken})`);
  expect(redacted).toBe(`server said: bad token ${secretPrefix(jwt)} (or cpt_aaaaaaaa…)`);
  expect(redacted).not.toContain(jwt);
  expect(redacted).not.toContain(apiToken);
});

test('short values and ordinary text pass unchanged', () => {
  const redactor = new Redactor();
  redactor.remember('short');
  redactor.remember(undefined);
  redactor.remember(null);
  expect(redactor.redact('a short note about cpt_ prefixes and eyJ')).toBe('a short note about cpt_ prefixes and eyJ');
});
