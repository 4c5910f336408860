import type { ObjectStore } from './object-store.js';
import type { Repositories } from './repositories.js';
import type { Clock, IdGenerator } from './system.js';

/** Limits the operator can change; defaults in `defaultDomainConfig`. */
export interface DomainConfig {
  /** Largest accepted dist/index.html, in bytes. */
  readonly maxUploadBytes: number;
  /** Lifetime of an upload session and of its presigned URL. */
  readonly uploadTtlSeconds: number;
}

export const defaultDomainConfig: DomainConfig = {
  maxUploadBytes: 5 * 1024 * 1024,
  uploadTtlSeconds: 3600,
};

/** Everything a use case may touch, passed in as one typed bag. */
export interface DomainDeps {
  readonly repos: Repositories;
  readonly objects: ObjectStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly config: DomainConfig;
}
