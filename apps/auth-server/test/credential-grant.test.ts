import type { ActingCredential } from '@cp/domain';
import type Provider from 'oidc-provider';
import { ExchangeRefusal } from '../src/ci/refusals.js';
import { type CredentialHolder, credentialGrant } from '../src/exchange/credential-grant.js';

// The grant bookkeeping alone, on a stand-in for oidc-provider's Grant model (a map of saved grants), so
// the races that real HTTP cannot time (a winner's grant revoked at once) are each exercised.
const RESOURCE = 'http://localhost:4100/mcp';
const OPTIONS = { clientId: 'cpc', resource: RESOURCE };

function grantStore() {
  const saved = new Map<string, FakeGrant>();
  let next = 0;
  class FakeGrant {
    jti?: string;
    resources: Record<string, string> = {};
    constructor(readonly init: { accountId: string; clientId: string }) {}
    get accountId() {
      return this.init.accountId;
    }
    get clientId() {
      return this.init.clientId;
    }
    addResourceScope(resource: string, scope: string) {
      this.resources[resource] = scope;
    }
    getResourceScope(resource: string) {
      return this.resources[resource] ?? '';
    }
    async save() {
      this.jti ??= `grant-${++next}`;
      saved.set(this.jti, this);
      return this.jti;
    }
    async destroy() {
      saved.delete(this.jti!);
    }
    static async find(id: string) {
      return saved.get(id);
    }
  }
  return { saved, provider: { Grant: FakeGrant } as unknown as Provider, FakeGrant };
}

const credential = (access: 'read' | 'write'): ActingCredential => ({
  scope: { organizationId: 'org', componentIds: null, environments: [], access, protectedEnvironments: false },
  via: { via: 'api-token', tokenId: 't', tokenName: 'nightly' },
});

function holder(overrides: Partial<CredentialHolder> & { attach?: (input: { grantId: string; expected: string | null }) => Promise<string | null> } = {}) {
  const calls: { grantId: string; expected: string | null }[] = [];
  const attach = overrides.attach ?? (async ({ grantId }) => grantId);
  const value: CredentialHolder = {
    userId: 'user-1',
    credential: credential('write'),
    grantId: null,
    notAfter: null,
    attachGrant: async (input) => {
      calls.push(input);
      return attach(input);
    },
    goneRefusal: () => new ExchangeRefusal('policy', "policy 'web-release' was deleted meanwhile"),
    ...overrides,
  };
  return { value, calls };
}

test('the first exchange saves a grant for the creator, cpc and the MCP resource, and records it (expected: none)', async () => {
  const { provider, saved } = grantStore();
  const { value, calls } = holder();
  const grant = await credentialGrant(provider, value, OPTIONS);
  expect(grant).toMatchObject({ accountId: 'user-1', clientId: 'cpc', resources: { [RESOURCE]: 'mcp:read mcp:write' } });
  expect(calls).toEqual([{ grantId: grant.jti, expected: null }]);
  expect([...saved.keys()]).toEqual([grant.jti]);
});

test('a recorded grant that still exists is used as it is', async () => {
  const { provider, saved } = grantStore();
  const first = await credentialGrant(provider, holder().value, OPTIONS);
  const { value, calls } = holder({ grantId: first.jti });
  expect((await credentialGrant(provider, value, OPTIONS)).jti).toBe(first.jti);
  expect(calls).toEqual([]);
  expect(saved.size).toBe(1);
});

test('a recorded grant that is gone (expired, revoked in /account) is replaced, compare-and-set on the old id', async () => {
  const { provider, saved } = grantStore();
  const { value, calls } = holder({ grantId: 'grant-gone' });
  const grant = await credentialGrant(provider, value, OPTIONS);
  expect(calls).toEqual([{ grantId: grant.jti, expected: 'grant-gone' }]);
  expect(saved.size).toBe(1);
});

test('a recorded grant for another scope is replaced (a read credential never rides a write grant)', async () => {
  const { provider } = grantStore();
  const writeGrant = await credentialGrant(provider, holder().value, OPTIONS);
  const { value, calls } = holder({ grantId: writeGrant.jti, credential: credential('read') });
  const grant = await credentialGrant(provider, value, OPTIONS);
  expect(grant.jti).not.toBe(writeGrant.jti);
  expect(grant.getResourceScope(RESOURCE)).toBe('mcp:read');
  expect(calls).toEqual([{ grantId: grant.jti, expected: writeGrant.jti }]);
});

test('losing the race: the own grant is destroyed and the winner is used', async () => {
  const { provider, saved, FakeGrant } = grantStore();
  const winner = new FakeGrant({ accountId: 'user-1', clientId: 'cpc' });
  winner.addResourceScope(RESOURCE, 'mcp:read mcp:write');
  const winnerId = await winner.save();
  const { value } = holder({ attach: async () => winnerId });
  expect((await credentialGrant(provider, value, OPTIONS)).jti).toBe(winnerId);
  expect([...saved.keys()]).toEqual([winnerId]);
});

test('a credential deleted meanwhile: the own grant is destroyed and the exchange refused', async () => {
  const { provider, saved } = grantStore();
  const { value } = holder({ attach: async () => null });
  await expect(credentialGrant(provider, value, OPTIONS)).rejects.toMatchObject({ claim: 'policy', message: "policy 'web-release' was deleted meanwhile" });
  expect(saved.size).toBe(0);
});

test("a winner whose grant is already gone: one more attempt records a grant over the winner's id", async () => {
  const { provider, saved } = grantStore();
  let attempt = 0;
  const { value, calls } = holder({ attach: async ({ grantId }) => (++attempt === 1 ? 'grant-revoked-at-once' : grantId) });
  const grant = await credentialGrant(provider, value, OPTIONS);
  expect(calls.map((call) => call.expected)).toEqual([null, 'grant-revoked-at-once']);
  expect([...saved.keys()]).toEqual([grant.jti]);
});

test('a winner gone twice in a row: refused rather than looping', async () => {
  const { provider, saved } = grantStore();
  const { value, calls } = holder({ attach: async () => 'grant-always-gone' });
  await expect(credentialGrant(provider, value, OPTIONS)).rejects.toBeInstanceOf(ExchangeRefusal);
  expect(calls).toHaveLength(2);
  expect(saved.size).toBe(0);
});
