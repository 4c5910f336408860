import { randomUUID } from 'node:crypto';
import type { AuditNote } from '../../entities/audit-event.js';
import type { CredentialScope, CredentialVia } from '../../entities/credential.js';
import type { OidcStorage } from '../../ports/oidc-storage.js';

/** A note through an API token, so the contracts check that rows keep `via`. */
export const viaNote = (actorId: string): AuditNote & { via: CredentialVia } => ({
  eventId: randomUUID(),
  actorId,
  via: { via: 'api-token', tokenId: randomUUID(), tokenName: 'nightly' },
});

export const aScope = (organizationId: string, overrides: Partial<CredentialScope> = {}): CredentialScope => ({
  organizationId,
  componentIds: null,
  environments: ['staging'],
  access: 'write',
  protectedEnvironments: false,
  ...overrides,
});

/** An OAuth grant of `userId` with an access token under it, as the token exchange stores them. */
export async function aGrantWithToken(grants: OidcStorage, userId: string): Promise<{ grantId: string; tokenId: string }> {
  const grantId = randomUUID();
  const tokenId = randomUUID();
  await grants.adapterFor('Grant').upsert(grantId, { jti: grantId, accountId: userId, clientId: 'cpc' }, 3600);
  await grants.adapterFor('AccessToken').upsert(tokenId, { jti: tokenId, grantId, accountId: userId, clientId: 'cpc' }, 900);
  return { grantId, tokenId };
}

/** Whether the grant and its access token are still stored. */
export async function grantLives(grants: OidcStorage, ids: { grantId: string; tokenId: string }): Promise<[boolean, boolean]> {
  return [
    (await grants.adapterFor('Grant').find(ids.grantId)) !== undefined,
    (await grants.adapterFor('AccessToken').find(ids.tokenId)) !== undefined,
  ];
}
