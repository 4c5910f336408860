import { writeFile } from 'node:fs/promises';
import { CiIssuerStandIn, githubClaims } from '../../apps/auth-server/test/support/ci-issuer.js';

/** How many tokens are signed at once (the signatures run on libuv's thread pool). */
const BATCH = 200;

/**
 * GitHub Actions' stand-in (the auth server tests' local RS256 issuer, on loopback) and the claims of
 * a job the bench's CI trust policy matches. Each token has a jti of its own: the exchange accepts an
 * id once, so a measurement needs as many tokens as it sends requests.
 */
export async function startCiTokens(): Promise<{
  readonly issuer: string;
  readonly ownerId: string;
  readonly repositoryId: string;
  /** Signs `count` tokens for `audience` and writes them to `file`, one a line. */
  mint(file: string, count: number, audience: string): Promise<void>;
  close(): Promise<void>;
}> {
  const stand = await CiIssuerStandIn.start();
  const ownerId = '51001';
  const repositoryId = '690001';
  return {
    issuer: stand.issuer,
    ownerId,
    repositoryId,
    async mint(file, count, audience) {
      const claims = githubClaims({ repository_owner_id: ownerId, repository_id: repositoryId, aud: audience });
      // Lives past the measurement: exp - iat is at most the exchange's limit (an hour).
      const nowSeconds = Math.floor(Date.now() / 1000);
      const lifetime = { iat: nowSeconds, exp: nowSeconds + 30 * 60 };
      const tokens: string[] = [];
      while (tokens.length < count) {
        const batch = Math.min(BATCH, count - tokens.length);
        tokens.push(...(await Promise.all(Array.from({ length: batch }, () => stand.mint({ ...claims, ...lifetime })))));
      }
      await writeFile(file, `${tokens.join('\n')}\n`, { mode: 0o600 });
    },
    close: () => stand.close(),
  };
}
