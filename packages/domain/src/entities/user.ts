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
}
