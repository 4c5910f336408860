export interface ObjectInfo {
  readonly size: number;
}

/**
 * Object storage (S3 API). Keys are opaque strings chosen by the domain.
 * Implementations map transport failures to errors that say which endpoint failed; an
 * endpoint that does not answer (refused, reset, timed out) is an UnavailableError.
 */
export interface ObjectStore {
  /**
   * A URL that accepts HTTP PUTs of the object until `signedAt` (default: now) plus
   * `expiresInSeconds`. Signing with the caller's own time lets it know the URL's
   * expiry exactly (an upload session ends with its URL).
   */
  presignPut(
    key: string,
    options: { expiresInSeconds: number; contentType: string; signedAt?: Date },
  ): Promise<string>;
  /** Size of the object, or null when there is none at that key. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** Server-side copy; the target is overwritten. */
  copy(sourceKey: string, targetKey: string): Promise<void>;
  /** The object's bytes; rejects when the object is missing. */
  read(key: string): Promise<Uint8Array>;
  /** Removes the object; removing a missing object is not an error. */
  remove(key: string): Promise<void>;
}
