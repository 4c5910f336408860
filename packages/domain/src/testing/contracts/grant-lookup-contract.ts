/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { GrantLookup, GrantOwner } from '../../ports/grant-lookup.js';

export interface GrantLookupSubject {
  readonly lookup: GrantLookup;
  /**
   * Stores an instance of `model` (oidc-provider's model name) with this id and
   * owner, as the auth server would: `live` expires later, `forever` never,
   * `expired` already has.
   */
  readonly store: (
    id: string,
    lifetime: 'live' | 'forever' | 'expired',
    owner: GrantOwner,
    model?: string,
  ) => Promise<void>;
  /** Deletes the grant, as revoking an application does. */
  readonly revoke: (id: string) => Promise<void>;
}

const anOwner = (): GrantOwner => ({ accountId: randomUUID(), clientId: `client-${randomUUID()}` });

/** The `GrantLookup` port's contract, for every implementation. */
export function grantLookupContract(subject: () => GrantLookupSubject): void {
  it('finds unexpired grants with their owner, and nothing else', async () => {
    const { lookup, store } = subject();
    const [live, forever, gone, token] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [liveOwner, foreverOwner] = [anOwner(), anOwner()];
    await store(live, 'live', liveOwner);
    await store(forever, 'forever', foreverOwner);
    await store(gone, 'expired', anOwner());
    await store(token, 'live', anOwner(), 'AccessToken');
    expect(await lookup.find(live)).toEqual(liveOwner);
    expect(await lookup.find(forever)).toEqual(foreverOwner);
    expect(await lookup.find(gone)).toBeNull();
    expect(await lookup.find(token)).toBeNull();
    expect(await lookup.find(randomUUID())).toBeNull();
    expect(await lookup.find('')).toBeNull();
  });

  it('sees a revocation at once', async () => {
    const { lookup, store, revoke } = subject();
    const revoked = randomUUID();
    const owner = anOwner();
    await store(revoked, 'forever', owner);
    expect(await lookup.find(revoked)).toEqual(owner);
    await revoke(revoked);
    expect(await lookup.find(revoked)).toBeNull();
  });
}
