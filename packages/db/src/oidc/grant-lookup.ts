import type { Clock, GrantLookup } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * Reads oidc-provider's storage (model `OidcPayload`, rows of type "Grant")
 * directly: the auth server writes it, the MCP server only asks. A row past its
 * `expiresAt` counts as gone even before oidc-provider cleans it up.
 */
export function createGrantLookup(
  prisma: PrismaClient,
  clock: Clock = { now: () => new Date() },
): GrantLookup {
  return {
    async exists(grantId) {
      if (grantId.length === 0) return false;
      const row = await prisma.oidcPayload.findUnique({
        where: { id_type: { id: grantId, type: 'Grant' } },
        select: { expiresAt: true },
      });
      return row !== null && (row.expiresAt === null || row.expiresAt > clock.now());
    },
  };
}
