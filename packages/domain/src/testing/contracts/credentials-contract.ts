/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { Credentials } from '../../ports/credentials.js';

export interface CredentialsSubject {
  readonly credentials: Credentials;
  /** The id of a new user (implementations may require the user to exist). */
  readonly aUser: () => Promise<string>;
}

/** The `Credentials` port's contract, for every implementation. */
export function credentialsContract(subject: () => CredentialsSubject): void {
  it('stores and replaces a password hash; none for unknown or malformed ids', async () => {
    const { credentials, aUser } = subject();
    const userId = await aUser();
    expect(await credentials.findPasswordHash(userId)).toBeNull();
    await credentials.setPasswordHash(userId, 'scrypt$15$8$1$a$b', new Date('2026-01-01T00:00:00Z'));
    await credentials.setPasswordHash(userId, 'scrypt$15$8$1$c$d', new Date('2026-01-02T00:00:00Z'));
    expect(await credentials.findPasswordHash(userId)).toBe('scrypt$15$8$1$c$d');
    expect(await credentials.findPasswordHash(randomUUID())).toBeNull();
    expect(await credentials.findPasswordHash('not-a-uuid')).toBeNull();
  });

  it('replaces a hash only while it is still the expected one', async () => {
    const { credentials, aUser } = subject();
    const userId = await aUser();
    const now = new Date('2026-01-01T00:00:00Z');
    await credentials.setPasswordHash(userId, 'scrypt$15$8$1$a$b', now);
    expect(
      await credentials.replacePasswordHash(userId, 'scrypt$15$8$1$a$b', 'scrypt$17$8$1$c$d', now),
    ).toBe(true);
    expect(await credentials.findPasswordHash(userId)).toBe('scrypt$17$8$1$c$d');
    // Changed meanwhile: a stale replacement does not undo it.
    expect(
      await credentials.replacePasswordHash(userId, 'scrypt$15$8$1$a$b', 'scrypt$17$8$1$e$f', now),
    ).toBe(false);
    expect(await credentials.findPasswordHash(userId)).toBe('scrypt$17$8$1$c$d');
    expect(
      await credentials.replacePasswordHash(
        randomUUID(),
        'scrypt$15$8$1$a$b',
        'scrypt$17$8$1$e$f',
        now,
      ),
    ).toBe(false);
    expect(
      await credentials.replacePasswordHash(
        'not-a-uuid',
        'scrypt$15$8$1$a$b',
        'scrypt$17$8$1$e$f',
        now,
      ),
    ).toBe(false);
  });
}
