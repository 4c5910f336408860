/**
 * Credentials that act for a person without a browser: API tokens (scripts, CI without OIDC)
 * and CI trust policies (trusted publishing: a CI's own OIDC token is exchanged). Both are
 * narrowed the same way (`CredentialScope`), and neither ever exceeds its creator's current
 * role: the domain caps the creator's membership with the scope on every call.
 */

/** What a credential may touch, beyond its creator's role (which it never exceeds). */
export interface CredentialScope {
  /** The one organization it acts in; every other organization is "not found" to it. */
  readonly organizationId: string;
  /** null: every component of the organization; otherwise only these (others are FORBIDDEN, new components too). */
  readonly componentIds: readonly string[] | null;
  /** The environments (names) it may release to; empty: none. */
  readonly environments: readonly string[];
  /** `read`: what a viewer may do; `write`: uploads and releases, as a member at most. */
  readonly access: CredentialAccess;
  /**
   * Whether it may release to a protected environment directly (when its creator's role may).
   * false: a release there becomes a release request, as a member's does.
   */
  readonly protectedEnvironments: boolean;
}

export const CredentialAccess = { Read: 'read', Write: 'write' } as const;
export type CredentialAccess = (typeof CredentialAccess)[keyof typeof CredentialAccess];

export const CiProvider = { GitHub: 'github', GitLab: 'gitlab' } as const;
export type CiProvider = (typeof CiProvider)[keyof typeof CiProvider];

/** How a change was made, when not by a person in a browser or an assistant: kept on audit rows and webhook payloads. */
export type CredentialVia =
  | { readonly via: 'api-token'; readonly tokenId: string; readonly tokenName: string }
  | {
      readonly via: 'ci';
      readonly policyId: string;
      readonly policyName: string;
      readonly provider: CiProvider;
      /** `owner/name` (GitHub `repository`, GitLab `project_path`). */
      readonly repository: string;
      /** GitHub `job_workflow_ref`, GitLab `ci_config_ref_uri`. */
      readonly workflow: string;
      /** GitHub `run_id`, GitLab `pipeline_id`. */
      readonly runId: string;
      /** GitHub `sha`, GitLab `sha`. */
      readonly commit: string;
    };

/** The credential a call is made with (on the Actor): its narrowing and how it is recorded. */
export interface ActingCredential {
  readonly scope: CredentialScope;
  readonly via: CredentialVia;
}

/** An API token as listed; the secret itself is shown once and only its SHA-256 is kept. */
export interface ApiToken {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  /** The secret's first characters (`cpt_` + a few), to tell tokens apart; too short to use. */
  readonly prefix: string;
  readonly scope: CredentialScope;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly lastUsedAt: Date | null;
  /** Set once: a revoked token is refused at the next exchange and stays listed for the record. */
  readonly revokedAt: Date | null;
  /** The OAuth grant its access tokens live under (one per credential); deleting it ends them within the grant-check window. */
  readonly grantId: string | null;
}

/** Which CI jobs may publish as the policy's creator, matched on immutable ids first. */
export interface CiTrustPolicy {
  readonly id: string;
  readonly organizationId: string;
  /** Unique in the organization; refusals name it ("repository_id does not match policy 'web-release'"). */
  readonly name: string;
  readonly provider: CiProvider;
  /** GitHub `repository_owner_id`, GitLab `namespace_id`. */
  readonly ownerId: string;
  /** GitHub `repository_id`, GitLab `project_id`. */
  readonly repositoryId: string;
  /** For messages only (ids decide): `owner/name` when the policy was made. */
  readonly repositoryName: string;
  /**
   * The workflow file, `.github/workflows/release.yml` (GitHub, matched against `job_workflow_ref`'s path, so
   * a reusable workflow is the one named) or `.gitlab-ci.yml` (GitLab, `ci_config_ref_uri`'s path).
   */
  readonly workflow: string;
  /** GitHub `environment` / GitLab `environment`; null: any. */
  readonly environment: string | null;
  /** Patterns on `ref` (`refs/tags/v*`, `*` matches any run of characters); empty: any ref. */
  readonly refPatterns: readonly string[];
  /** Refuse self-hosted runners (GitHub `runner_environment`, GitLab `runner_environment`: `github-hosted` / `gitlab-hosted`). */
  readonly requireHostedRunner: boolean;
  readonly scope: CredentialScope;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly grantId: string | null;
}
