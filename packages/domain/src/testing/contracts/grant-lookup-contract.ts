/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { GrantLookup } from '../../ports/grant-lookup.js';

export interface GrantLookupSubject {
  readonly lookup: GrantLookup;
  /**
   * Stores an instance of `model` (oidc-provider's model name) with this id, as
   * the auth server would: `live` expires later, `forever` never, `expired` already has.
   */
  readonly store: (id: string, lifetime: 'live' | 'forever' | 'expired', model?: string) => Promise<void>;
  /** Deletes the grant, as revoking an application does. */
  readonly revoke: (id: string) => Promise<void>;
}

/** The `GrantLookup` port's contract, for every implementation. */
export function grantLookupContract(subject: () => GrantLookupSubject): void {
  it('knows unexpired grants and nothing else', async () => {
    const { lookup, store } = subject();
    const [live, forever, gone, token] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await store(live, 'live');
    await store(forever, 'forever');
    await store(gone, 'expired');
    await store(token, 'live', 'AccessToken');
    expect(await lookup.exists(live)).toBe(true);
    expect(await lookup.exists(forever)).toBe(true);
    expect(await lookup.exists(gone)).toBe(false);
    expect(await lookup.exists(token)).toBe(false);
    expect(await lookup.exists(randomUUID())).toBe(false);
    expect(await lookup.exists('')).toBe(false);
  });

  it('sees a revocation at once', async () => {
    const { lookup, store, revoke } = subject();
    const revoked = randomUUID();
    await store(revoked, 'forever');
    expect(await lookup.exists(revoked)).toBe(true);
    await revoke(revoked);
    expect(await lookup.exists(revoked)).toBe(false);
  });
}
