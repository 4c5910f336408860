import { CiProvider, CredentialAccess, type ActingCredential } from '@cp/domain';
import { z } from 'zod';

/** The claim the auth server adds to tokens it issued in exchange for an API token or a CI token (docs/cli-and-ci.md). */
export const CREDENTIAL_CLAIM = 'cp_credential';

const id = z.string().min(1).max(200);

const credentialClaim = z.object({
  scope: z.object({
    organizationId: id,
    componentIds: z.array(id).max(1000).nullable(),
    environments: z.array(id).max(100),
    access: z.enum([CredentialAccess.Read, CredentialAccess.Write]),
    protectedEnvironments: z.boolean(),
  }),
  via: z.discriminatedUnion('via', [
    z.object({ via: z.literal('api-token'), tokenId: id, tokenName: id }),
    z.object({
      via: z.literal('ci'),
      policyId: id,
      policyName: id,
      provider: z.enum([CiProvider.GitHub, CiProvider.GitLab]),
      repository: id,
      workflow: z.string().min(1).max(1000),
      runId: id,
      commit: id,
    }),
  ]),
});

/**
 * The credential a token acts through, or undefined for a person's own token. The claim is
 * signed with the token, so it is trusted as the auth server wrote it; a malformed one means
 * a token this server does not understand, which is refused rather than read as unnarrowed.
 */
export function readCredentialClaim(value: unknown): ActingCredential | undefined | 'malformed' {
  if (value === undefined) return undefined;
  const parsed = credentialClaim.safeParse(value);
  return parsed.success ? parsed.data : 'malformed';
}
