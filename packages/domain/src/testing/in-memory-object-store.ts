import type { ObjectInfo, ObjectStore } from '../ports/object-store.js';

/** For domain unit tests only; integration tests use the real S3 server. */
export class InMemoryObjectStore implements ObjectStore {
  readonly objects = new Map<string, Uint8Array>();

  async presignPut(
    key: string,
    options: { expiresInSeconds: number; signedAt?: Date },
  ): Promise<string> {
    const signed =
      options.signedAt === undefined ? '' : `signed=${options.signedAt.toISOString()}&`;
    return `https://objects.test/${encodeURIComponent(key)}?${signed}expires=${options.expiresInSeconds}&signature=x'y`;
  }

  /** What a client's PUT to the presigned URL does. */
  put(key: string, content: string | Uint8Array): void {
    this.objects.set(
      key,
      typeof content === 'string' ? new TextEncoder().encode(content) : content,
    );
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const bytes = this.objects.get(key);
    return bytes ? { size: bytes.byteLength } : null;
  }

  async copy(sourceKey: string, targetKey: string): Promise<void> {
    this.objects.set(targetKey, await this.read(sourceKey));
  }

  async read(key: string): Promise<Uint8Array> {
    const bytes = this.objects.get(key);
    if (!bytes) throw new Error(`no object at ${key}`);
    return bytes;
  }

  async remove(key: string): Promise<void> {
    this.objects.delete(key);
  }
}
