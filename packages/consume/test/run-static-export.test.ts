import {
  publishVariant,
  registerUser,
  setStaticExport,
  startRollout,
  startUpload,
  stopRollout,
  confirmUpload,
  type DomainDeps,
} from '@cp/domain';
import { InMemoryExportStore, inMemoryDeps, type InMemoryObjectStore } from '@cp/domain/testing';
import {
  consumeResponseOf,
  createVariantLoaders,
  frameDocumentOf,
  jsonBody,
  runStaticExport,
  type StaticExportDeps,
} from '../src/index.js';

/*
 * The export job on the domain's in-memory repositories (experiences, rollouts and their live
 * assignments included, made through the use cases): what it writes where, and how it
 * converges. The same job against PostgreSQL/PGlite, the real S3 API and the delivery API's
 * /consume bytes over HTTP: apps/worker/test/static-export.test.ts.
 */

async function upload(
  deps: DomainDeps,
  objects: InMemoryObjectStore,
  actor: { userId: string },
  options: { name?: string; componentId?: string; html: string },
) {
  const started = await startUpload(
    options.componentId
      ? { actor, componentId: options.componentId }
      : { actor, name: options.name ?? 'Header' },
    deps,
  );
  objects.put(started.session.stagingKey, options.html);
  return confirmUpload({ actor, uploadId: started.session.id }, deps);
}

async function anOrganization(prefix = 'exports/', store = new InMemoryExportStore()) {
  const setup = inMemoryDeps();
  const user = await registerUser(
    { email: `o-${Math.random().toString(36).slice(2)}@example.com` },
    setup.deps,
  );
  const actor = { userId: user.id };
  const organizationId = user.defaultOrganizationId;
  const first = await upload(setup.deps, setup.objects, actor, {
    name: 'Price',
    html: '<p>v1</p>',
  });
  const componentId = first.componentId;
  const second = await upload(setup.deps, setup.objects, actor, {
    componentId,
    html: '<p>v2 <script>cpSend("x")</script></p>',
  });
  const loaders = createVariantLoaders(setup.objects, 1_000_000);
  const exportDeps: StaticExportDeps = {
    repos: setup.repos,
    loaders,
    store,
    clock: setup.clock,
    prefix,
    frameDocument: FRAME,
  };
  const publish = (environment: string, variantId?: string) =>
    publishVariant({ actor, componentId, environment, variantId }, setup.deps);
  return {
    ...setup,
    actor,
    organizationId,
    componentId,
    variants: [first.variantId, second.variantId],
    store,
    exportDeps,
    loaders,
    publish,
  };
}

const FRAME = frameDocumentOf(new TextEncoder().encode('<!doctype html><script>/* the frame */</script>'));

const json = (store: InMemoryExportStore, key: string): unknown =>
  JSON.parse(store.text(key) ?? 'null');

describe('runStaticExport', () => {
  it('an organization that did not opt in gets nothing written', async () => {
    const { publish, store, exportDeps, organizationId } = await anOrganization();
    await publish('staging');
    expect(await runStaticExport({ organizationId }, exportDeps)).toEqual({
      outcome: 'removed',
      written: 0,
      removed: 0,
    });
    expect(store.objects.size).toBe(0);
  });

  it('writes each release as its /consume body under the organization folder, and a manifest, with headers', async () => {
    const {
      deps,
      actor,
      publish,
      store,
      exportDeps,
      organizationId,
      componentId,
      variants,
      repos,
      loaders,
    } = await anOrganization();
    await publish('staging');
    await publish('prod', variants[0]);
    await setStaticExport({ actor, organizationId, enabled: true }, deps);

    expect(await runStaticExport({ organizationId, full: true }, exportDeps)).toEqual({
      outcome: 'exported',
      written: 3,
      removed: 0,
    });

    const folder = `exports/${organizationId}/`;
    expect(FRAME.path).toMatch(/^host\/frame\/v1\.[0-9a-f]{16}\.html$/);
    expect([...store.objects.keys()].sort()).toEqual(
      [
        `${folder}components/${componentId}/prod.json`,
        `${folder}components/${componentId}/staging.json`,
        `${folder}manifest.json`,
        `${folder}${FRAME.path}`,
      ].sort(),
    );
    const component = { id: componentId, name: 'Price', organizationId };
    const variant = repos.state.variants.find((v) => v.id === variants[1])!;
    const expected = jsonBody(await consumeResponseOf(component, variant, { loaders }));
    expect(
      Buffer.from(
        store.objects.get(`${folder}components/${componentId}/staging.json`)!.bytes,
      ).equals(expected),
    ).toBe(true);
    const frame = store.objects.get(`${folder}${FRAME.path}`)!;
    expect(frame).toMatchObject({
      contentType: 'text/html; charset=utf-8',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(Buffer.from(frame.bytes).equals(Buffer.from(FRAME.html))).toBe(true);
    for (const [key, object] of store.objects) {
      if (key.endsWith('.html')) continue;
      expect(object.contentType).toBe('application/json; charset=utf-8');
      expect(object.cacheControl).toBe(
        'public, max-age=30, stale-while-revalidate=60, stale-if-error=86400',
      );
    }
    expect(json(store, `${folder}manifest.json`)).toEqual({
      organizationId,
      generatedAt: deps.clock.now().toISOString(),
      frameDocument: FRAME.path,
      components: [
        {
          id: componentId,
          name: 'Price',
          environments: {
            prod: {
              variant: { id: variants[0], name: 'v1' },
              path: `components/${componentId}/prod.json`,
              releasedAt: deps.clock.now().toISOString(),
            },
            staging: {
              variant: { id: variants[1], name: 'v2' },
              path: `components/${componentId}/staging.json`,
              releasedAt: deps.clock.now().toISOString(),
            },
          },
        },
      ],
    });
    expect(await repos.staticExports.find(organizationId)).toMatchObject({
      exportedAt: deps.clock.now(),
      lastError: null,
    });
  });

  it('a rollback rewrites only its object; a second run with nothing new writes only the manifest', async () => {
    const { deps, actor, publish, store, exportDeps, organizationId, componentId, variants } =
      await anOrganization('');
    await publish('staging');
    await publish('prod');
    await setStaticExport({ actor, organizationId, enabled: true }, deps);
    await runStaticExport({ organizationId, full: true }, exportDeps);

    await publish('prod', variants[0]);
    expect(await runStaticExport({ organizationId }, exportDeps)).toEqual({
      outcome: 'exported',
      written: 1,
      removed: 0,
    });
    expect(json(store, `${organizationId}/components/${componentId}/prod.json`)).toMatchObject({
      item: { consume_variant: [{ id: variants[0], name: 'v1' }] },
    });
    expect(await runStaticExport({ organizationId }, exportDeps)).toEqual({
      outcome: 'exported',
      written: 0,
      removed: 0,
    });

    // A new SDK build: its frame document is written beside the earlier one, which stays for SDK files pinned to it.
    const next = frameDocumentOf(new TextEncoder().encode('<!doctype html><script>/* next build */</script>'));
    expect(
      await runStaticExport({ organizationId }, { ...exportDeps, frameDocument: next }),
    ).toEqual({ outcome: 'exported', written: 1, removed: 0 });
    expect(store.text(`${organizationId}/${next.path}`)).toContain('next build');
    expect(store.text(`${organizationId}/${FRAME.path}`)).toContain('the frame');
    expect(json(store, `${organizationId}/manifest.json`)).toMatchObject({ frameDocument: next.path });
  });

  it('a live assignment: the fallback with its descriptor, one object per arm, listed; its end removes the arms', async () => {
    const {
      deps,
      actor,
      publish,
      store,
      exportDeps,
      organizationId,
      componentId,
      variants,
      repos,
    } = await anOrganization('');
    await publish('prod', variants[0]);
    await setStaticExport({ actor, organizationId, enabled: true }, deps);
    const target = { actor, componentId, environment: 'prod' };
    await startRollout(
      { ...target, candidateVariantId: variants[1]!, stages: [{ weight: 5_000, holdMinutes: 60 }] },
      deps,
    );
    const live = (await repos.assignments.findLive(componentId, 'prod'))!;
    expect(await runStaticExport({ organizationId }, exportDeps)).toEqual({
      outcome: 'exported',
      written: 3,
      removed: 0,
    });
    const descriptor = {
      revision: live.revision,
      kind: 'rollout',
      segments: [
        {
          rules: [],
          salt: live.segments[0]!.salt,
          arms: [
            { arm: 'v2', upTo: 5_000 },
            { arm: 'release', upTo: 100_000 },
          ],
        },
      ],
    };
    const fallbackPath = `components/${componentId}/prod.json`;
    const armPath = `components/${componentId}/prod/arms/v2.json`;
    expect(json(store, `${organizationId}/${fallbackPath}`)).toMatchObject({
      item: { consume_variant: [{ id: variants[0], name: 'v1' }] },
      assignment: { ...descriptor, arm: 'release' },
    });
    expect(json(store, `${organizationId}/${armPath}`)).toMatchObject({
      item: { consume_variant: [{ id: variants[1], name: 'v2' }] },
      assignment: { ...descriptor, arm: 'v2' },
    });
    expect(json(store, `${organizationId}/manifest.json`)).toMatchObject({
      components: [
        {
          environments: {
            prod: {
              path: fallbackPath,
              assignment: {
                revision: live.revision,
                arms: { v2: { variant: { id: variants[1], name: 'v2' }, path: armPath } },
              },
            },
          },
        },
      ],
    });
    expect(await runStaticExport({ organizationId }, exportDeps)).toEqual({
      outcome: 'exported',
      written: 0,
      removed: 0,
    });

    await stopRollout(target, deps);
    expect(await runStaticExport({ organizationId }, exportDeps)).toEqual({
      outcome: 'exported',
      written: 1,
      removed: 1,
    });
    expect(store.text(`${organizationId}/${armPath}`)).toBeUndefined();
    expect(json(store, `${organizationId}/${fallbackPath}`)).not.toHaveProperty('assignment');
  });

  it('a failed write is recorded and thrown (for the queue to retry); the next run succeeds and clears it', async () => {
    const { deps, actor, publish, store, exportDeps, organizationId, repos } =
      await anOrganization();
    await setStaticExport({ actor, organizationId, enabled: true }, deps);
    await publish('staging');
    store.failingPuts = 1;

    await expect(runStaticExport({ organizationId }, exportDeps)).rejects.toThrow(
      /^export store unavailable \(writing exports\//,
    );
    expect(await repos.staticExports.find(organizationId)).toMatchObject({
      exportedAt: null,
      lastErrorAt: deps.clock.now(),
    });
    expect((await repos.staticExports.find(organizationId)).lastError).toMatch(
      /^export store unavailable/,
    );

    await runStaticExport({ organizationId }, exportDeps);
    expect(await repos.staticExports.find(organizationId)).toMatchObject({
      lastError: null,
      lastErrorAt: null,
      exportedAt: deps.clock.now(),
    });
    expect(store.objects.size).toBe(3);
  });

  it("turned off, the next run removes the organization's folder, and nothing of another's", async () => {
    const one = await anOrganization();
    const other = await anOrganization('exports/', one.store);
    for (const org of [one, other]) {
      await setStaticExport(
        { actor: org.actor, organizationId: org.organizationId, enabled: true },
        org.deps,
      );
      await org.publish('staging');
      await runStaticExport({ organizationId: org.organizationId }, org.exportDeps);
    }
    expect(one.store.objects.size).toBe(6);

    await setStaticExport(
      { actor: one.actor, organizationId: one.organizationId, enabled: false },
      one.deps,
    );
    expect(await runStaticExport({ organizationId: one.organizationId }, one.exportDeps)).toEqual({
      outcome: 'removed',
      written: 0,
      removed: 3,
    });
    expect(
      [...one.store.objects.keys()].every((key) =>
        key.startsWith(`exports/${other.organizationId}/`),
      ),
    ).toBe(true);
    expect(one.store.objects.size).toBe(3);
  });

  it('releases that change while it writes: it reads them again and ends on the latest', async () => {
    const { deps, actor, publish, store, exportDeps, organizationId, componentId, variants } =
      await anOrganization();
    await setStaticExport({ actor, organizationId, enabled: true }, deps);
    await publish('prod', variants[0]);
    // A rollforward lands between this run's read and its write (as a concurrent release would).
    let raced = false;
    const racing = Object.assign(Object.create(store) as InMemoryExportStore, {
      put: async (...args: Parameters<InMemoryExportStore['put']>) => {
        await store.put(...args);
        if (!raced && args[0].includes('/components/')) {
          raced = true;
          await publish('prod', variants[1]);
        }
      },
    });

    const run = await runStaticExport({ organizationId }, { ...exportDeps, store: racing });

    expect(run).toEqual({ outcome: 'exported', written: 3, removed: 0 });
    expect(
      json(store, `exports/${organizationId}/components/${componentId}/prod.json`),
    ).toMatchObject({ item: { consume_variant: [{ id: variants[1] }] } });
    expect(json(store, `exports/${organizationId}/manifest.json`)).toMatchObject({
      components: [{ environments: { prod: { variant: { id: variants[1], name: 'v2' } } } }],
    });
  });
});
