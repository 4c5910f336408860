import { randomUUID } from 'node:crypto';
import { DEFAULT_GUARD_SETTINGS, type Repositories } from '@cp/domain';
import pg from 'pg';
import { createDatabase } from '../src/client.js';
import { createRepositories } from '../src/repositories/index.js';
import { aComponent, anAuditNote, aUserWithOrganization, aVariant, createTestDatabase, openMigratedPglite } from '../src/testing/index.js';
import { backends } from './support/backends.js';

/*
 * Experience publishes and rollout changes announce the component on component_changed when
 * they commit (the migration's triggers), so the delivery API's caches and the /changes
 * stream drop what they held. Neither write touches a table that notified before.
 */

interface Listening {
  readonly repos: Repositories;
  readonly heard: string[];
  close(): Promise<void>;
}

async function listening(kind: 'pglite' | 'postgres'): Promise<Listening> {
  const heard: string[] = [];
  if (kind === 'pglite') {
    const pglite = await openMigratedPglite();
    const database = await createDatabase({ pglite });
    const unlisten = await pglite.listen('component_changed', (id) => heard.push(id));
    return {
      repos: createRepositories(database),
      heard,
      close: async () => {
        await unlisten();
        await database.close();
        await pglite.close();
      },
    };
  }
  const database = await createTestDatabase({ kind });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  client.on('notification', (message) => heard.push(message.payload ?? ''));
  await client.query('LISTEN component_changed');
  return {
    repos: database.repos,
    heard,
    close: async () => {
      await client.end();
      await database.close();
    },
  };
}

const until = async (condition: () => boolean) => {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 5_000) throw new Error('no notification within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each(backends)('experience and rollout change notifications [%s]', (kind) => {
  let db: Listening;
  beforeAll(async () => {
    db = await listening(kind);
  }, 120_000);
  afterAll(() => db?.close());

  it('a publish, a rollout start and a rollout change each notify the component', async () => {
    const { repos, heard } = db;
    const owner = await aUserWithOrganization(repos);
    const [environment] = owner.environments;
    const component = await aComponent(repos, { organizationId: owner.organization.id, createdBy: owner.user.id });
    const baseline = (await repos.variants.findLatest(component.id))!;
    const candidate = await aVariant(repos, { componentId: component.id, createdBy: owner.user.id });
    const where = { componentId: component.id, environmentId: environment!.id };
    const now = new Date();
    await repos.releases.publish({ eventId: randomUUID(), ...where, variantId: baseline.id, releasedBy: owner.user.id, now, audit: anAuditNote(owner.user.id) });
    const heardAfter = async (write: () => Promise<unknown>) => {
      heard.length = 0;
      await write();
      await until(() => heard.includes(component.id));
    };
    await heardAfter(() =>
      repos.experiences.publish({ ...where, definition: { segments: [] }, salt: 'a', republishedFrom: null, moved: [], publishedBy: owner.user.id, now, audit: anAuditNote(owner.user.id) }),
    );
    const rolloutId = randomUUID();
    await heardAfter(() =>
      repos.rollouts.start({
        id: rolloutId,
        ...where,
        candidateVariantId: candidate.id,
        baselineVariantId: baseline.id,
        salt: 'b',
        stages: [{ weight: 1_000, holdMinutes: 0 }],
        guard: DEFAULT_GUARD_SETTINGS,
        startedBy: owner.user.id,
        now,
        audit: anAuditNote(owner.user.id),
      }),
    );
    await heardAfter(() => repos.rollouts.change({ rolloutId, expectedRevision: 1, change: { kind: 'stop', reason: 'test' }, now, audit: anAuditNote(owner.user.id) }));
  });
});
