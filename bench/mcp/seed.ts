import { confirmUpload, registerUser, startUpload, type DomainDeps } from '../../packages/domain/src/index.js';

export interface Seeded {
  readonly userId: string;
  readonly organizationId: string;
  /** The component get_component reads (a real upload, so it has HTML). */
  readonly componentId: string;
}

/**
 * One user whose organization holds `components` components: the first through a
 * real upload (presigned PUT, confirm), the rest through the repositories (no
 * objects needed to list them).
 */
export async function seedOrganization(deps: DomainDeps, components: number): Promise<Seeded> {
  const user = await registerUser({ email: `bench-${Date.now()}@example.com` }, deps);
  const organizationId = user.defaultOrganizationId;

  const html = `<!doctype html><html><head><style>p{color:#333}</style></head><body>${'<p>Benchmark component</p>'.repeat(40)}</body></html>`;
  const started = await startUpload({ actor: { userId: user.id }, name: 'aaa-bench-target' }, deps);
  const put = await fetch(started.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: html });
  if (!put.ok) throw new Error(`seed upload failed: ${put.status}`);
  const target = await confirmUpload({ actor: { userId: user.id }, uploadId: started.session.id }, deps);

  const now = new Date();
  let next = 1;
  const worker = async () => {
    while (next < components) {
      const i = next++;
      const id = deps.ids.newId();
      const componentId = deps.ids.newId();
      const name = `component-${String(i).padStart(5, '0')}`;
      await deps.repos.uploadSessions.create({
        id,
        userId: user.id,
        organizationId,
        componentId: null,
        componentName: name,
        stagingKey: `staging/${id}`,
        state: 'pending',
        expiresAt: new Date(now.getTime() + 3600_000),
        createdAt: now,
        result: null,
      });
      await deps.repos.uploadSessions.confirm({
        sessionId: id,
        now,
        componentId,
        newComponent: { id: componentId, organizationId, name, description: `Seeded component ${i}` },
        variant: { id: deps.ids.newId(), objectKey: `variants/${componentId}/seed`, size: 10, sha256: '0'.repeat(64), integrity: 'sha384-seed', createdBy: user.id },
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { userId: user.id, organizationId, componentId: target.componentId };
}
