import type { ExportStore, ObjectHeaders } from '../ports/export-store.js';

export interface StoredExportObject extends ObjectHeaders {
  readonly bytes: Uint8Array;
}

/** For unit tests only; integration tests write to the real S3 server. */
export class InMemoryExportStore implements ExportStore {
  readonly objects = new Map<string, StoredExportObject>();
  /** Writes that fail before this many more calls have been made (a bucket that is down). */
  failingPuts = 0;

  async put(key: string, bytes: Uint8Array, headers: ObjectHeaders): Promise<void> {
    if (this.failingPuts > 0) {
      this.failingPuts -= 1;
      throw new Error(`export store unavailable (writing ${key})`);
    }
    this.objects.set(key, {
      bytes: Uint8Array.from(bytes),
      contentType: headers.contentType,
      cacheControl: headers.cacheControl,
    });
  }

  async readIfPresent(key: string): Promise<Uint8Array | null> {
    return this.objects.get(key)?.bytes ?? null;
  }

  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((key) => key.startsWith(prefix));
  }

  async remove(key: string): Promise<void> {
    this.objects.delete(key);
  }

  text(key: string): string | undefined {
    const object = this.objects.get(key);
    return object && new TextDecoder().decode(object.bytes);
  }
}
