/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AppSettings } from '../../entities/component-app.js';
import { anExperienceTeam, note, type ExperiencesSubject } from './experience-team.js';

/** What the apps contract needs: ExperiencesSubject, whose `auditOf` includes the component's `app.*` rows. */
export type ComponentAppsSubject = ExperiencesSubject;

const settings = (title: string, extra: Partial<Omit<AppSettings, 'environment'>> = {}): Omit<AppSettings, 'environment'> => ({
  title,
  description: `Shows ${title} when the user asks for a price.`,
  inputSchema: null,
  actionTools: {},
  ...extra,
});

const PRICE_SCHEMA = { type: 'object', properties: { price: { type: 'string' } }, required: ['price'] };

/** ComponentApps (apps), for every implementation: one app per component, audited, with its release. */
export function componentAppsContract(subject: () => ComponentAppsSubject): void {
  const team = async () => {
    const base = await anExperienceTeam(subject());
    const { repos, componentId, owner, now } = base;
    const save = (environmentId: string, values = settings('Price tag'), by = owner, component = componentId) =>
      repos.apps.save({ componentId: component, environmentId, settings: values, savedBy: by, now: now(), audit: note(by) });
    const appAudit = async () => (await subject().auditOf(componentId)).filter((row) => row.kind.startsWith('app.'));
    const appEvents = async () => (await subject().webhookEventsOf(base.organizationId)).filter((e) => e.type.startsWith('app.'));
    /** An environment of the organization that nothing was released to. */
    const anEmptyEnvironment = async (name: string) => {
      const id = randomUUID();
      await repos.environments.create({ id, organizationId: base.organizationId, name, protected: false, now: now(), audit: note(owner) });
      return id;
    };
    return { ...base, save, appAudit, appEvents, anEmptyEnvironment };
  };

  it('keeps one app per component: the first save creates it, the next replaces it, each audited and announced', async () => {
    const { repos, componentId, organizationId, ids, owner, member, save, appAudit, appEvents } = await team();
    expect(await repos.apps.find(componentId)).toBeNull();
    const first = await save(ids.staging, settings('Price tag', { actionTools: { buy: 'publish_component' } }));
    expect(first).toMatchObject({
      componentId,
      organizationId,
      environmentId: ids.staging,
      environmentName: 'staging',
      title: 'Price tag',
      inputSchema: null,
      actionTools: { buy: 'publish_component' },
      updatedBy: owner,
    });
    expect(first.componentName).toMatch(/\S/);
    expect(await repos.apps.find(componentId)).toEqual(first);

    const second = await save(ids.prod, settings('Price', { inputSchema: PRICE_SCHEMA }), member);
    expect(second).toMatchObject({ environmentId: ids.prod, environmentName: 'prod', title: 'Price', inputSchema: PRICE_SCHEMA, actionTools: {}, updatedBy: member });
    expect(await repos.apps.find(componentId)).toEqual(second);
    // Taking the schema out stores none (not a JSON null that reads back as a schema).
    expect((await save(ids.prod, settings('Price'))).inputSchema).toBeNull();
    expect((await repos.apps.find(componentId))!.inputSchema).toBeNull();

    const audit = await appAudit();
    expect(audit.map((row) => [row.kind, row.actorId, row.details.created])).toEqual([
      ['app.saved', owner, true],
      ['app.saved', member, false],
      ['app.saved', owner, false],
    ]);
    expect(audit[0]!.details).toEqual({ created: true, environment: 'staging', title: 'Price tag', inputSchema: false, actionTools: 1 });
    expect(audit[1]!.details).toMatchObject({ environment: 'prod', inputSchema: true, actionTools: 0 });
    const events = await appEvents();
    expect(events.map((e) => [e.type, e.data.created])).toEqual([
      ['app.saved', true],
      ['app.saved', false],
      ['app.saved', false],
    ]);
    expect(events[0]!.data).toMatchObject({
      environment: { id: ids.staging, name: 'staging' },
      title: 'Price tag',
      description: 'Shows Price tag when the user asks for a price.',
      inputSchema: false,
      actionTools: { buy: 'publish_component' },
    });
  });

  it('of parallel first saves, exactly one creates the app', async () => {
    const { ids, save, appAudit } = await team();
    await Promise.all(Array.from({ length: 8 }, (_, index) => save(ids.staging, settings(`Price ${index}`))));
    expect((await appAudit()).map((row) => row.details.created).sort()).toEqual([false, false, false, false, false, false, false, true]);
  });

  it('removes the app with an audit row and an event; false when there is none', async () => {
    const { repos, componentId, ids, owner, save, appAudit, appEvents } = await team();
    expect(await repos.apps.remove({ componentId, removedBy: owner, now: new Date(), audit: note(owner) })).toBe(false);
    expect(await repos.apps.remove({ componentId: 'not-a-uuid', removedBy: owner, now: new Date(), audit: note(owner) })).toBe(false);
    await save(ids.staging);
    expect(await repos.apps.remove({ componentId, removedBy: owner, now: new Date(), audit: note(owner) })).toBe(true);
    expect(await repos.apps.find(componentId)).toBeNull();
    expect(await repos.apps.remove({ componentId, removedBy: owner, now: new Date(), audit: note(owner) })).toBe(false);
    expect((await appAudit()).map((row) => [row.kind, row.details])).toEqual([
      ['app.saved', expect.objectContaining({ created: true })],
      ['app.removed', { environment: 'staging', title: 'Price tag' }],
    ]);
    const removed = (await appEvents()).at(-1);
    expect(removed?.type).toBe('app.removed');
    expect(removed?.data).toMatchObject({ environment: { id: ids.staging, name: 'staging' }, title: 'Price tag' });
    expect(await repos.apps.find('not-a-uuid')).toBeNull();
  });

  it("lists the apps of the member's organizations only, with the release their environment serves now", async () => {
    const { repos, componentId, organizationId, ids, owner, member, v1, v2, release, save, anEmptyEnvironment } = await team();
    const organizationName = (await repos.organizations.findById(organizationId))!.name;
    await save(ids.staging);
    const listed = await repos.apps.listForMember(member);
    expect(listed).toEqual([{ app: await repos.apps.find(componentId), organizationName, release: { variantId: v1, version: 1 } }]);
    expect(await repos.apps.listForMember(owner)).toEqual(listed);

    // A stranger's own organization has its own app; neither sees the other's.
    const stranger = randomUUID();
    const strangerOrganization = randomUUID();
    await repos.users.createWithOrganization({
      user: { id: stranger, email: `${stranger}@example.test`, displayName: null },
      organization: { id: strangerOrganization, name: `Other ${stranger.slice(0, 8)}`, environments: [{ id: randomUUID(), name: 'live', protected: false }] },
      now: new Date('2026-05-01T00:00:00.000Z'),
    });
    const theirs = await subject().aComponent(strangerOrganization, stranger);
    const [theirEnvironment] = await repos.environments.listForOrganization(strangerOrganization);
    await repos.apps.save({ componentId: theirs.id, environmentId: theirEnvironment!.id, settings: settings('Theirs'), savedBy: stranger, now: new Date(), audit: note(stranger) });
    expect((await repos.apps.listForMember(stranger)).map((live) => [live.app.componentId, live.release])).toEqual([[theirs.id, null]]);
    expect((await repos.apps.listForMember(member)).map((live) => live.app.componentId)).toEqual([componentId]);
    expect(await repos.apps.listForMember(randomUUID())).toEqual([]);
    expect(await repos.apps.listForMember('not-a-uuid')).toEqual([]);

    // A new release changes the version; an environment without one lists the app with none.
    await release(v2, ids.staging);
    expect((await repos.apps.listForMember(member))[0]!.release).toEqual({ variantId: v2, version: 2 });
    await save(await anEmptyEnvironment('qa'));
    expect((await repos.apps.listForMember(member))[0]).toMatchObject({ app: { environmentName: 'qa' }, release: null });
  });

  it('goes with its environment: removing the environment removes the app', async () => {
    const { repos, componentId, owner, now, save, anEmptyEnvironment } = await team();
    // The port does not require a release (the use case does): an environment nothing was released to can be removed.
    const qa = await anEmptyEnvironment('qa');
    await save(qa);
    expect(await repos.environments.remove(qa, { now: now(), audit: note(owner) })).toBe('removed');
    expect(await repos.apps.find(componentId)).toBeNull();
    expect(await repos.apps.listForMember(owner)).toEqual([]);
  });
}
