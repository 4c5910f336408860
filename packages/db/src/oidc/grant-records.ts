import type { GrantRecord } from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** Models whose issue time says when an application last obtained a token under a grant. */
const ISSUED_UNDER_GRANT = ['AuthorizationCode', 'RefreshToken'];

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const fromEpoch = (value: unknown): Date | null => (typeof value === 'number' ? new Date(value * 1000) : null);
const named = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

type GrantPayload = { clientId?: unknown; resources?: unknown; openid?: { scope?: unknown }; iat?: unknown };

/**
 * An account's unexpired grants, newest first, in a fixed number of reads whatever their
 * number: the grants, the API tokens' and CI trust policies' grants among them,
 * then the codes and refresh tokens issued under them and their clients'
 * registrations. `live` is the storage's "not expired" filter. A credential's
 * grant is not a connected application: it is listed, and revoked, with its
 * token or policy.
 */
export async function listGrants(prisma: PrismaClient, accountId: string, live: Prisma.OidcPayloadWhereInput): Promise<GrantRecord[]> {
  const all = await prisma.oidcPayload.findMany({
    where: { type: 'Grant', payload: { path: ['accountId'], equals: accountId }, ...live },
    select: { id: true, payload: true, expiresAt: true },
  });
  const ids = all.map((grant) => grant.id);
  const [tokens, policies] = await Promise.all([
    prisma.apiToken.findMany({ where: { grantId: { in: ids } }, select: { grantId: true } }),
    prisma.ciTrustPolicy.findMany({ where: { grantId: { in: ids } }, select: { grantId: true } }),
  ]);
  const credentialGrants = new Set([...tokens, ...policies].map((row) => row.grantId));
  const grants = all.filter((grant) => !credentialGrants.has(grant.id));
  if (grants.length === 0) return [];
  const payloadOf = (grant: (typeof grants)[number]) => (grant.payload ?? {}) as GrantPayload;
  const clientIds = [...new Set(grants.map((grant) => text(payloadOf(grant).clientId) ?? ''))];
  const [issued, clients] = await Promise.all([
    prisma.oidcPayload.findMany({
      where: { grantId: { in: grants.map((grant) => grant.id) }, type: { in: ISSUED_UNDER_GRANT } },
      select: { grantId: true, payload: true },
    }),
    prisma.oidcPayload.findMany({ where: { type: 'Client', id: { in: clientIds }, ...live }, select: { id: true, payload: true } }),
  ]);
  const lastUsed = new Map<string, number>();
  for (const row of issued) {
    const iat = (row.payload as { iat?: unknown } | null)?.iat;
    if (row.grantId !== null && typeof iat === 'number') lastUsed.set(row.grantId, Math.max(iat, lastUsed.get(row.grantId) ?? 0));
  }
  const clientNames = new Map(clients.map((client) => [client.id, named((client.payload as { client_name?: unknown } | null)?.client_name)]));
  return grants
    .map((grant): GrantRecord => {
      const payload = payloadOf(grant);
      const clientId = text(payload.clientId) ?? '';
      return {
        grantId: grant.id,
        accountId,
        clientId,
        clientName: clientNames.get(clientId) ?? null,
        resources: typeof payload.resources === 'object' && payload.resources !== null ? (payload.resources as Record<string, string>) : {},
        openidScope: text(payload.openid?.scope),
        grantedAt: fromEpoch(payload.iat) ?? new Date(0),
        lastUsedAt: fromEpoch(lastUsed.get(grant.id)),
        expiresAt: grant.expiresAt,
      };
    })
    .sort((a, b) => b.grantedAt.getTime() - a.grantedAt.getTime() || a.grantId.localeCompare(b.grantId));
}
