/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { ApplicationGrants } from '../../ports/application-grants.js';
import type { OidcStorage } from '../../ports/oidc-storage.js';

export interface ApplicationGrantsSubject {
  readonly grants: ApplicationGrants;
  /** The OIDC storage the grants live in: the tests write grants and tokens as oidc-provider does. */
  readonly storage: OidcStorage;
  readonly advance: (seconds: number) => void;
  readonly now: () => Date;
}

/** The `ApplicationGrants` port's contract (connected applications' persistence), for every implementation. */
export function applicationGrantsContract(subject: () => ApplicationGrantsSubject): void {
  const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
  const MCP = 'http://localhost:4100/mcp';

  it("lists an account's grants, newest first, with the last token issue time", async () => {
    const { grants, storage, now } = subject();
    const accountId = randomUUID();
    const older = randomUUID();
    const newer = randomUUID();
    const iat = epoch(now());
    await storage.adapterFor('Grant').upsert(older, { jti: older, kind: 'Grant', accountId, clientId: 'cursor', iat: iat - 100, resources: { [MCP]: 'mcp:read' } }, 3600);
    await storage.adapterFor('Grant').upsert(newer, { jti: newer, kind: 'Grant', accountId, clientId: 'claude', iat, openid: { scope: 'openid mcp:read' }, resources: {} }, 3600);
    await storage.adapterFor('Grant').upsert(randomUUID(), { accountId: 'someone-else', clientId: 'x', iat }, 3600);
    await storage.adapterFor('AuthorizationCode').upsert(randomUUID(), { grantId: older, iat: iat - 90 }, 60);
    await storage.adapterFor('RefreshToken').upsert(randomUUID(), { grantId: older, iat: iat - 10 }, 3600);

    const listed = await grants.listGrants(accountId);
    expect(listed.map((grant) => grant.grantId)).toEqual([newer, older]);
    expect(listed[1]).toEqual({
      grantId: older,
      accountId,
      clientId: 'cursor',
      clientName: null,
      resources: { [MCP]: 'mcp:read' },
      openidScope: null,
      grantedAt: new Date((iat - 100) * 1000),
      lastUsedAt: new Date((iat - 10) * 1000),
      expiresAt: new Date(now().getTime() + 3600_000),
    });
    expect(listed[0]).toMatchObject({ clientId: 'claude', openidScope: 'openid mcp:read', lastUsedAt: null });
  });

  it('names each grant by its registered client, when the client gave a name', async () => {
    const { grants, storage, now } = subject();
    const accountId = randomUUID();
    const named = `named-${randomUUID()}`;
    const blank = `blank-${randomUUID()}`;
    await storage.adapterFor('Client').upsert(named, { client_id: named, client_name: 'Cursor' });
    await storage.adapterFor('Client').upsert(blank, { client_id: blank, client_name: ' ' });
    const iat = epoch(now());
    for (const [clientId, age] of [[named, 0], [blank, 1], ['never-registered', 2]] as const) {
      await storage.adapterFor('Grant').upsert(randomUUID(), { accountId, clientId, iat: iat - age }, 3600);
    }
    expect((await grants.listGrants(accountId)).map((grant) => grant.clientName)).toEqual(['Cursor', null, null]);
  });

  it('leaves expired grants out', async () => {
    const { grants, storage, advance } = subject();
    const accountId = randomUUID();
    await storage.adapterFor('Grant').upsert(randomUUID(), { accountId, clientId: 'short', iat: 1 }, 60);
    advance(61);
    expect(await grants.listGrants(accountId)).toEqual([]);
  });

  it('revokes a whole grant with everything issued under it, and nothing else', async () => {
    const { grants, storage } = subject();
    const grantId = randomUUID();
    const other = randomUUID();
    await storage.adapterFor('Grant').upsert(grantId, { jti: grantId, accountId: 'acc-revoke', clientId: 'c' }, 3600);
    await storage.adapterFor('RefreshToken').upsert(`rt-${grantId}`, { jti: `rt-${grantId}`, grantId }, 3600);
    await storage.adapterFor('AuthorizationCode').upsert(`code-${grantId}`, { jti: `code-${grantId}`, grantId }, 60);
    await storage.adapterFor('RefreshToken').upsert(`rt-${other}`, { jti: `rt-${other}`, grantId: other }, 3600);

    await grants.revokeGrant(grantId, { actorId: randomUUID(), newEventId: randomUUID, now: new Date(), clientId: 'c', clientName: 'C' });
    expect(await storage.adapterFor('Grant').find(grantId)).toBeUndefined();
    expect(await storage.adapterFor('RefreshToken').find(`rt-${grantId}`)).toBeUndefined();
    expect(await storage.adapterFor('AuthorizationCode').find(`code-${grantId}`)).toBeUndefined();
    expect(await storage.adapterFor('RefreshToken').find(`rt-${other}`)).toBeDefined();
    await grants.revokeGrant(grantId, { actorId: randomUUID(), newEventId: randomUUID, now: new Date(), clientId: 'c', clientName: 'C' });
  });
}
