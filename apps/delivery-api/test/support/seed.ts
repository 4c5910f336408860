import { confirmUpload, createFlow, publishVariant, registerUser, setFlowStatus, startUpload, type DomainDeps } from '@cp/domain';

export const SMALL_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Card</title>
<link rel="stylesheet" href="https://cdn.example/card.css" integrity="sha384-abc" crossorigin="anonymous">
<style>.card{padding:1rem}</style>
<script type="module" src="./card.js"></script>
</head><body><div class="card">Hello, ünïcode ✓</div><script>window.cardReady = true;</script></body></html>`;

export async function aUser(deps: DomainDeps) {
  const user = await registerUser({ email: `user-${Math.random().toString(36).slice(2)}@example.com` }, deps);
  return { actor: { userId: user.id }, organizationId: user.defaultOrganizationId };
}

/** Both upload steps as a client runs them, the PUT over HTTP to the presigned URL. */
export async function upload(
  deps: DomainDeps,
  actor: { userId: string },
  options: { name?: string; componentId?: string; html?: string } = {},
) {
  const started = await startUpload(
    options.componentId ? { actor, componentId: options.componentId } : { actor, name: options.name ?? `Card ${Math.random().toString(36).slice(2)}` },
    deps,
  );
  const put = await fetch(started.uploadUrl, {
    method: 'PUT',
    headers: { 'Content-Type': 'text/html' },
    body: options.html ?? SMALL_PAGE,
  });
  if (!put.ok) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  return confirmUpload({ actor, uploadId: started.session.id }, deps);
}

export const publish = (deps: DomainDeps, actor: { userId: string }, componentId: string, environment: string, variantId?: string) =>
  publishVariant({ actor, componentId, environment, variantId }, deps);

export async function aPublishedFlow(deps: DomainDeps, actor: { userId: string }, organizationId: string, componentIds: string[]) {
  const flow = await createFlow({ actor, organizationId, name: `Flow ${Math.random().toString(36).slice(2)}`, componentIds }, deps);
  await setFlowStatus({ actor, flowId: flow.id, status: 'published' }, deps);
  return flow;
}
