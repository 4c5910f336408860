/**
 * A secret that lets a host read an organization's previews when they are
 * private. Only a hash of the secret is stored; the secret is shown once.
 */
export interface PreviewKey {
  readonly id: string;
  readonly organizationId: string;
  /** A label people give it ("staging host", "Alice's laptop"). */
  readonly name: string;
  /** The secret's first characters, to tell keys apart; too short to use. */
  readonly prefix: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  /** Set once: a revoked key opens nothing, and stays listed for the record. */
  readonly revokedAt: Date | null;
}
