import type { ActingCredential } from './credential.js';

export interface User {
  readonly id: string;
  readonly email: string;
  readonly displayName: string | null;
  readonly defaultOrganizationId: string;
  readonly createdAt: Date;
}

/** The person on whose behalf a use case runs. Every use case takes one. */
export interface Actor {
  readonly userId: string;
  /**
   * Present when the call comes through an API token or a CI trust policy: the person is its
   * creator, narrowed by the credential (use-cases/access applies it; never beyond the person's role).
   */
  readonly credential?: ActingCredential;
}
