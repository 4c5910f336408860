/** An OAuth application a user allowed to use their account: one grant, as people see it. */
export interface ConnectedApplication {
  readonly grantId: string;
  readonly clientId: string;
  readonly clientName: string;
  /** Every scope granted, whichever resource it was granted for, plus `openid` / `offline_access`. */
  readonly scopes: readonly string[];
  readonly grantedAt: Date;
  /** The last time the application got a code or a refresh token under this grant. */
  readonly lastUsedAt: Date | null;
}
