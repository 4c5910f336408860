import { randomUUID } from 'node:crypto';
import { defaultDomainConfig, type DomainConfig, type DomainDeps } from '../ports/deps.js';
import type { Clock } from '../ports/system.js';
import { InMemoryObjectStore } from './in-memory-object-store.js';
import { createInMemoryRepositories } from './in-memory-repositories.js';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-01-01T00:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

export function inMemoryDeps(config: Partial<DomainConfig> = {}) {
  const repos = createInMemoryRepositories();
  const objects = new InMemoryObjectStore();
  const clock = new ManualClock();
  const deps: DomainDeps = {
    repos,
    objects,
    clock,
    ids: { newId: () => randomUUID() },
    config: { ...defaultDomainConfig, ...config },
  };
  return { deps, repos, objects, clock };
}
