import type { Clock, GrantLookup } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/**
 * Reads oidc-provider's storage (model `OidcPayload`, rows of type "Grant")
 * directly: the auth server writes it, the MCP server only asks. A row past its
 * `expiresAt` counts as gone even before oidc-provider cleans it up; so does a row
 * without an owner (oidc-provider always writes `accountId` and `clientId`).
 */
export function createGrantLookup(
  prisma: PrismaClient,
  clock: Clock = { now: () => new Date() },
): GrantLookup {
  return {
    async find(grantId) {
      if (grantId.length === 0) return null;
      const row = await prisma.oidcPayload.findUnique({
        where: { id_type: { id: grantId, type: 'Grant' } },
        select: { expiresAt: true, payload: true },
      });
      if (row === null || (row.expiresAt !== null && row.expiresAt <= clock.now())) return null;
      const payload = (row.payload ?? {}) as { accountId?: unknown; clientId?: unknown };
      const accountId = text(payload.accountId);
      const clientId = text(payload.clientId);
      return accountId === null || clientId === null ? null : { accountId, clientId };
    },
  };
}
