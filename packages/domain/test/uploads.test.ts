import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { confirmUpload } from '../src/use-cases/uploads/confirm-upload.js';
import { startUpload } from '../src/use-cases/uploads/start-upload.js';
import { sweepExpiredUploads } from '../src/use-cases/uploads/sweep-expired-uploads.js';
import { createOrganization } from '../src/use-cases/organizations/create-organization.js';
import { aUser, anUploadedComponent, SMALL_HTML } from './builders.js';

const setup = async () => {
  const env = inMemoryDeps({ maxUploadBytes: 1024 });
  const alice = await aUser(env.deps, 'alice@example.com');
  return { ...env, alice };
};

describe('startUpload', () => {
  it('creates a pending session in the default organization with a one-line curl command', async () => {
    const { deps, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: ' Header ' }, deps);
    expect(started.session).toMatchObject({
      organizationId: alice.organizationId,
      componentId: null,
      componentName: 'Header',
      state: 'pending',
      stagingKey: `uploads/${started.session.id}/index.html`,
    });
    expect(started.expiresInSeconds).toBe(3600);
    expect(started.session.expiresAt.getTime() - started.session.createdAt.getTime()).toBe(3600_000);
    expect(started.curlCommand).toContain(`'${started.uploadUrl.replaceAll("'", `'\\''`)}'`);
    expect(started.curlCommand).not.toContain('\n');
  });

  it('needs a name for a new component', async () => {
    const { deps, alice } = await setup();
    await expect(startUpload({ actor: alice.actor }, deps)).rejects.toThrow(
      'name: pass "name" (from service.config.json) to create a new component, or "componentId" to add a version to an existing one.',
    );
  });

  it('refuses a name already used in the organization, case-insensitively, and names the existing id', async () => {
    const { deps, objects, alice } = await setup();
    const first = await anUploadedComponent(deps, objects, alice.actor, { name: 'Header' });
    await expect(startUpload({ actor: alice.actor, name: 'HEADER' }, deps)).rejects.toMatchObject({
      code: ErrorCode.NameTaken,
      details: { componentId: first.componentId },
      message: expect.stringContaining(`pass componentId "${first.componentId}"`),
    });
  });

  it('finds the organization by id or by name, and refuses an unknown one', async () => {
    const { deps, alice } = await setup();
    const team = await createOrganization({ actor: alice.actor, name: 'Team' }, deps);
    expect((await startUpload({ actor: alice.actor, name: 'A', organization: team.id }, deps)).session.organizationId).toBe(team.id);
    expect((await startUpload({ actor: alice.actor, name: 'B', organization: 'team' }, deps)).session.organizationId).toBe(team.id);
    await expect(startUpload({ actor: alice.actor, name: 'C', organization: 'Nope' }, deps)).rejects.toThrow(
      'Organization "Nope" was not found, or you do not have access to it.',
    );
  });

  it('refuses an ambiguous organization name', async () => {
    const { deps, alice } = await setup();
    await createOrganization({ actor: alice.actor, name: 'Team' }, deps);
    await createOrganization({ actor: alice.actor, name: 'team' }, deps);
    await expect(startUpload({ actor: alice.actor, name: 'A', organization: 'Team' }, deps)).rejects.toMatchObject({
      code: ErrorCode.AmbiguousOrganization,
    });
  });

  it('targets an existing component, and refuses an organization that does not own it', async () => {
    const { deps, objects, alice } = await setup();
    const first = await anUploadedComponent(deps, objects, alice.actor);
    const started = await startUpload({ actor: alice.actor, componentId: first.componentId }, deps);
    expect(started.session).toMatchObject({ componentId: first.componentId, componentName: 'Header' });
    const other = await createOrganization({ actor: alice.actor, name: 'Other' }, deps);
    await expect(
      startUpload({ actor: alice.actor, componentId: first.componentId, organization: other.id }, deps),
    ).rejects.toThrow(/belongs to another organization/);
  });

  it("treats another organization's component as not found", async () => {
    const { deps, objects, alice } = await setup();
    const bob = await aUser(deps, 'bob@example.com');
    const first = await anUploadedComponent(deps, objects, alice.actor);
    await expect(startUpload({ actor: bob.actor, componentId: first.componentId }, deps)).rejects.toThrow(
      `Component "${first.componentId}" was not found, or you do not have access to it.`,
    );
    await expect(startUpload({ actor: bob.actor, componentId: 'not-a-uuid' }, deps)).rejects.toMatchObject({
      code: ErrorCode.NotFound,
    });
  });
});

describe('confirmUpload', () => {
  it('creates a component with variant 1, keeps the bytes at an immutable key and removes the staged object', async () => {
    const { deps, objects, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    const result = await confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps);
    expect(result).toMatchObject({ componentName: 'Header', variantSequence: 1, isNewComponent: true, organizationId: alice.organizationId });
    const variant = repos.state.variants[0]!;
    expect(variant.objectKey).toBe(`components/${result.componentId}/variants/${result.variantId}/index.html`);
    expect(new TextDecoder().decode(objects.objects.get(variant.objectKey))).toBe(SMALL_HTML);
    expect(objects.objects.has(started.session.stagingKey)).toBe(false);
    expect(repos.state.components[0]).toMatchObject({ variantsCount: 1, tags: [] });
  });

  it('adds a new variant to an existing component', async () => {
    const { deps, objects, alice } = await setup();
    const first = await anUploadedComponent(deps, objects, alice.actor);
    const second = await anUploadedComponent(deps, objects, alice.actor, { componentId: first.componentId });
    expect(second).toMatchObject({ componentId: first.componentId, variantSequence: 2, isNewComponent: false });
  });

  it('is idempotent: a second confirm returns the first result and adds nothing', async () => {
    const { deps, objects, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    const first = await confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps);
    const again = await confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps);
    expect(again).toEqual(first);
    expect(repos.state.variants).toHaveLength(1);
  });

  it('two concurrent confirms give one variant and leave no stray object', async () => {
    const { deps, objects, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    const [a, b] = await Promise.all([
      confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps),
      confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps),
    ]);
    expect(a).toEqual(b);
    expect(repos.state.variants).toHaveLength(1);
    expect([...objects.objects.keys()]).toEqual([repos.state.variants[0]!.objectKey]);
  });

  it('before the PUT: says to run the curl command, and what a refused (too large) PUT means; the session stays usable', async () => {
    const { deps, objects, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    const error = await confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.UploadNotReceived, message: expect.stringContaining('Run the curlCommand') });
    expect((error as Error).message).toContain('If curl failed with error 400, the storage refused the file as larger than the 1024-byte limit');
    objects.put(started.session.stagingKey, SMALL_HTML);
    await expect(confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps)).resolves.toMatchObject({ variantSequence: 1 });
  });

  it('an oversized upload is refused and removed; a corrected one then succeeds', async () => {
    const { deps, objects, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, `<p>${'x'.repeat(1100)}</p>`);
    await expect(confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps)).rejects.toMatchObject({
      code: ErrorCode.UploadTooLarge,
      details: { size: 1107, limit: 1024 },
    });
    expect(objects.objects.size).toBe(0);
    expect(repos.state.components).toHaveLength(0);
    objects.put(started.session.stagingKey, SMALL_HTML);
    await expect(confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps)).resolves.toMatchObject({ isNewComponent: true });
  });

  it('a non-HTML upload is refused and removed, leaving no component or variant', async () => {
    const { deps, objects, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff]));
    await expect(confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps)).rejects.toMatchObject({
      code: ErrorCode.UploadNotHtml,
    });
    expect(objects.objects.size).toBe(0);
    expect(repos.state.components).toHaveLength(0);
    expect(repos.state.uploadSessions[0]!.state).toBe('pending');
  });

  it('a failing database write leaves no object behind and the session pending', async () => {
    const { deps, objects, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    repos.uploadSessions.confirm = () => Promise.reject(new Error('connection lost'));
    await expect(confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps)).rejects.toThrow('connection lost');
    expect([...objects.objects.keys()]).toEqual([started.session.stagingKey]);
    expect(repos.state.uploadSessions[0]!.state).toBe('pending');
  });

  it('refuses an expired session', async () => {
    const { deps, objects, clock, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    clock.advance(3600);
    await expect(confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps)).rejects.toMatchObject({
      code: ErrorCode.UploadExpired,
      message: 'This upload session has expired. Call upload_component again for a new upload command.',
    });
  });

  it("another user's session is not found", async () => {
    const { deps, objects, alice } = await setup();
    const bob = await aUser(deps, 'bob@example.com');
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    await expect(confirmUpload({ actor: bob.actor, uploadId: started.session.id }, deps)).rejects.toThrow(
      `Upload "${started.session.id}" was not found, or you do not have access to it.`,
    );
  });

  it('a name taken between start and confirm is refused and writes nothing', async () => {
    const { deps, objects, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    await anUploadedComponent(deps, objects, alice.actor, { name: 'header' });
    objects.put(started.session.stagingKey, SMALL_HTML);
    await expect(confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps)).rejects.toMatchObject({
      code: ErrorCode.NameTaken,
    });
    expect(repos.state.variants).toHaveLength(1);
    expect(objects.objects.size).toBe(2); // the other component's variant and the still-staged file
  });
});

describe('sweepExpiredUploads', () => {
  it('expires only overdue pending sessions and removes their staged objects', async () => {
    const { deps, objects, clock, repos, alice } = await setup();
    const old = await startUpload({ actor: alice.actor, name: 'Old' }, deps);
    objects.put(old.session.stagingKey, SMALL_HTML);
    clock.advance(3000);
    const fresh = await startUpload({ actor: alice.actor, name: 'Fresh' }, deps);
    objects.put(fresh.session.stagingKey, SMALL_HTML);
    clock.advance(601);
    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 1,
      stagingRemoved: 1,
      objectsNotRemoved: 0,
    });
    expect(objects.objects.has(old.session.stagingKey)).toBe(false);
    expect(objects.objects.has(fresh.session.stagingKey)).toBe(true);
    expect(repos.state.uploadSessions.map((s) => s.state)).toEqual(['expired', 'pending']);
    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 0,
      stagingRemoved: 0,
      objectsNotRemoved: 0,
    });
  });

  it('removes what a PUT after confirm_upload stored, once the URL has expired', async () => {
    const { deps, objects, clock, repos, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    await confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps);
    expect(objects.objects.has(started.session.stagingKey)).toBe(false);
    // The URL still works until the session's expiry: a second PUT puts the object back.
    objects.put(started.session.stagingKey, SMALL_HTML);

    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 0,
      stagingRemoved: 0,
      objectsNotRemoved: 0,
    });
    expect(objects.objects.has(started.session.stagingKey)).toBe(true);
    clock.advance(3601);
    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 0,
      stagingRemoved: 1,
      objectsNotRemoved: 0,
    });
    expect(objects.objects.has(started.session.stagingKey)).toBe(false);
    expect(repos.state.uploadSessions[0]).toMatchObject({
      state: 'confirmed',
      stagingRemovedAt: clock.now(),
    });
  });

  it('sweeps sessions in every state exactly once', async () => {
    const { deps, objects, clock, repos, alice } = await setup();
    const pending = await startUpload({ actor: alice.actor, name: 'Pending' }, deps);
    const confirmed = await startUpload({ actor: alice.actor, name: 'Confirmed' }, deps);
    objects.put(confirmed.session.stagingKey, SMALL_HTML);
    await confirmUpload({ actor: alice.actor, uploadId: confirmed.session.id }, deps);
    const expired = await startUpload({ actor: alice.actor, name: 'Expired' }, deps);
    await repos.uploadSessions.markExpired(expired.session.id);
    const removed: string[] = [];
    const remove = objects.remove.bind(objects);
    objects.remove = async (key) => {
      removed.push(key);
      await remove(key);
    };

    clock.advance(3601);
    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 1,
      stagingRemoved: 3,
      objectsNotRemoved: 0,
    });
    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 0,
      stagingRemoved: 0,
      objectsNotRemoved: 0,
    });
    expect(removed.sort()).toEqual(
      [pending, confirmed, expired].map((s) => s.session.stagingKey).sort(),
    );
    expect(repos.state.uploadSessions.map((s) => s.stagingRemovedAt)).toEqual([
      clock.now(),
      clock.now(),
      clock.now(),
    ]);
  });

  it('tries a failed removal again at the next sweep', async () => {
    const { deps, objects, clock, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    clock.advance(3601);
    const remove = objects.remove.bind(objects);
    objects.remove = async () => {
      throw new Error('store unreachable');
    };
    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 1,
      stagingRemoved: 0,
      objectsNotRemoved: 1,
    });
    objects.remove = remove;
    expect(await sweepExpiredUploads({}, deps)).toEqual({
      expired: 0,
      stagingRemoved: 1,
      objectsNotRemoved: 0,
    });
    expect(objects.objects.has(started.session.stagingKey)).toBe(false);
  });

  it('the upload URL is signed at the session start, so it expires no later than the session', async () => {
    const { deps, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    const url = new URL(started.uploadUrl);
    const urlExpiry =
      new Date(url.searchParams.get('signed')!).getTime() +
      Number(url.searchParams.get('expires')) * 1000;
    expect(urlExpiry).toBeLessThanOrEqual(started.session.expiresAt.getTime());
  });
});

describe('confirmUpload racing a finished confirm', () => {
  it('answers with the stored result when the staged object is already gone', async () => {
    const { deps, objects, alice } = await setup();
    const started = await startUpload({ actor: alice.actor, name: 'Header' }, deps);
    objects.put(started.session.stagingKey, SMALL_HTML);
    // The second call reads the session while it is still pending, then the first finishes.
    const findById = deps.repos.uploadSessions.findById.bind(deps.repos.uploadSessions);
    let first: Promise<unknown> | undefined;
    deps.repos.uploadSessions.findById = async (id) => {
      const session = await findById(id);
      if (!first) {
        first = confirmUpload({ actor: alice.actor, uploadId: id }, deps);
        await first;
      }
      return session;
    };
    const second = await confirmUpload({ actor: alice.actor, uploadId: started.session.id }, deps);
    expect(second).toEqual(await first);
  });
});
