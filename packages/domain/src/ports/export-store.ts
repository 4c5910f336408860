/** HTTP headers stored with an object, which the object store (and a CDN in front of it) serves back. */
export interface ObjectHeaders {
  readonly contentType: string;
  readonly cacheControl: string;
}

/**
 * The bucket the static export writes (docs/static-export.md): public
 * objects that a CDN serves as they are. Keys are chosen by the export.
 */
export interface ExportStore {
  /** Writes the object whole, replacing what was at the key, with its headers. */
  put(key: string, bytes: Uint8Array, headers: ObjectHeaders): Promise<void>;
  /** The object's bytes, or null when there is none at that key. */
  readIfPresent(key: string): Promise<Uint8Array | null>;
  /** Every key that starts with `prefix`, in no particular order. */
  list(prefix: string): Promise<string[]>;
  /** Removes the object; removing a missing object is not an error. */
  remove(key: string): Promise<void>;
}
