import type { DomainDeps } from '../src/ports/deps.js';
import { registerUser } from '../src/use-cases/users/register-user.js';
import { startUpload } from '../src/use-cases/uploads/start-upload.js';
import { confirmUpload } from '../src/use-cases/uploads/confirm-upload.js';
import type { InMemoryObjectStore } from '../src/testing/in-memory-object-store.js';

export const SMALL_HTML = '<!doctype html><html><body><h1>Hello</h1></body></html>';

export async function aUser(deps: DomainDeps, email = `user-${Math.random().toString(36).slice(2)}@example.com`) {
  const user = await registerUser({ email }, deps);
  return { user, actor: { userId: user.id }, organizationId: user.defaultOrganizationId };
}

/** Runs both upload steps as a client would, PUT included. */
export async function anUploadedComponent(
  deps: DomainDeps,
  objects: InMemoryObjectStore,
  actor: { userId: string },
  options: { name?: string; componentId?: string; html?: string } = {},
) {
  const started = await startUpload(
    options.componentId ? { actor, componentId: options.componentId } : { actor, name: options.name ?? 'Header' },
    deps,
  );
  objects.put(started.session.stagingKey, options.html ?? SMALL_HTML);
  return confirmUpload({ actor, uploadId: started.session.id }, deps);
}
