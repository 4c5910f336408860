import { randomUUID } from 'node:crypto';
import type { AppSettings, LiveApp } from '../src/entities/component-app.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import { appArgumentsProblem } from '../src/rules/app-definition.js';
import { appTools } from '../src/rules/app-tools.js';
import { released } from '../src/testing/publish-outcomes.js';
import { getComponentApp } from '../src/use-cases/component-apps/get-component-app.js';
import { listMemberAppTools } from '../src/use-cases/component-apps/list-member-apps.js';
import { removeComponentApp } from '../src/use-cases/component-apps/remove-component-app.js';
import { saveComponentApp } from '../src/use-cases/component-apps/save-component-app.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { aUser, anUploadedComponent } from './builders.js';
import { aTeamWithAReleasedComponent } from './experience-builders.js';

const PRICE = { type: 'object', properties: { price: { type: 'string' }, lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } } }, required: ['price'] };

const settings = (overrides: Partial<AppSettings> = {}): AppSettings => ({
  environment: 'staging',
  title: 'Banner',
  description: 'Shows the banner with the price the user asked about.',
  inputSchema: null,
  actionTools: {},
  ...overrides,
});

async function aTeam() {
  const team = await aTeamWithAReleasedComponent();
  const { deps, owner, componentId } = team;
  const save = (overrides: Partial<AppSettings> = {}, actor = owner.actor, component = componentId) =>
    saveComponentApp({ actor, componentId: component, settings: settings(overrides) }, deps);
  const remove = (actor = owner.actor) => removeComponentApp({ actor, componentId }, deps);
  return { ...team, save, remove };
}

/** The error a promise rejects with (fails the test when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('offering a component as an app', () => {
  it('owners and admins save and remove it; any member reads it', async () => {
    const { save, remove, deps, admin, viewer, componentId, repos } = await aTeam();
    const saved = await save({ title: '  Banner  ', inputSchema: PRICE, actionTools: { buy: 'publish_component' } });
    expect(saved).toMatchObject({ componentId, environmentName: 'staging', title: 'Banner', inputSchema: PRICE, actionTools: { buy: 'publish_component' } });
    expect(await getComponentApp({ actor: viewer.actor, componentId }, deps)).toEqual(saved);
    expect((await save({ environment: 'prod' }, admin.actor)).environmentName).toBe('prod');
    expect(repos.state.auditEvents.filter((e) => e.kind.startsWith('app.')).map((e) => [e.kind, e.actorId, e.details['created']])).toEqual([
      ['app.saved', saved.updatedBy, true],
      ['app.saved', admin.user.id, false],
    ]);
    await remove(admin.actor);
    expect(await getComponentApp({ actor: viewer.actor, componentId }, deps)).toBeNull();
    expect(await refusal(remove())).toMatchObject({ code: ErrorCode.NotFound });
  });

  it('refuses members and viewers, naming who can; another organization does not see the component', async () => {
    const { save, remove, member, viewer, deps, componentId } = await aTeam();
    for (const person of [member, viewer]) {
      const error = await refusal(save({}, person.actor));
      expect(error.code).toBe(ErrorCode.Forbidden);
      expect(error.message).toMatch(/only owners and admins can offer components as apps/);
    }
    await save();
    expect(await refusal(remove(member.actor))).toMatchObject({ code: ErrorCode.Forbidden, message: expect.stringMatching(/owners and admins/) });
    const stranger = await aUser(deps);
    expect(await refusal(save({}, stranger.actor))).toMatchObject({ code: ErrorCode.NotFound });
    expect(await refusal(remove(stranger.actor))).toMatchObject({ code: ErrorCode.NotFound });
    expect(await refusal(getComponentApp({ actor: stranger.actor, componentId }, deps))).toMatchObject({ code: ErrorCode.NotFound });
  });

  it('needs a release in the environment, and an environment that exists', async () => {
    const { save, repos, owner } = await aTeam();
    repos.state.environments.push({ id: randomUUID(), organizationId: owner.organizationId, name: 'qa', protected: false, createdAt: new Date() });
    const error = await refusal(save({ environment: 'qa' }));
    expect(error).toMatchObject({ code: ErrorCode.Conflict });
    expect(error.message).toMatch(/Banner has no release in qa.*Publish a variant to qa first/);
    expect(await refusal(save({ environment: 'nowhere' }))).toMatchObject({ code: ErrorCode.NotFound, message: expect.stringMatching(/Known environments: .*prod/) });
    expect(repos.state.apps).toEqual([]);
  });

  it('refuses invalid settings with the field and what to do', async () => {
    const { save, repos } = await aTeam();
    const invalid = async (overrides: Partial<AppSettings>) => {
      const error = await refusal(save(overrides));
      expect(error.code).toBe(ErrorCode.InvalidInput);
      return error.message;
    };
    expect(await invalid({ title: ' ' })).toBe('title: must be a non-empty string.');
    expect(await invalid({ description: 'x'.repeat(1001) })).toMatch(/^description: is 1001 characters long; the limit is 1000/);
    expect(await invalid({ inputSchema: { type: 'string' } })).toMatch(/^inputSchema: must have "type": "object".*e\.g\. \{"type":"object"/);
    expect(await invalid({ inputSchema: [] as never })).toMatch(/^inputSchema: must be a JSON Schema object/);
    const badKeyword = await invalid({ inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } });
    expect(badKeyword).toMatch(/^inputSchema: is not a valid JSON Schema \(draft-07\): properties\.a\.type must be equal to one of the allowed values \(array, boolean, integer, null, number, object, string\)/);
    expect(badKeyword).toMatch(/Fix the schema, or leave it out to accept any object\.$/);
    expect(await invalid({ inputSchema: { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } } })).toMatch(/can't resolve reference #\/definitions\/missing/);
    const big = { type: 'object', description: 'x'.repeat(16 * 1024) };
    expect(await invalid({ inputSchema: big })).toMatch(/^inputSchema: is \d+ bytes of JSON; the limit is 16384\. Shorten it/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 3000; i += 1) deep = { type: 'object', properties: { a: deep } };
    expect(await invalid({ inputSchema: deep })).toMatch(/^inputSchema: nests objects and arrays more than 32 levels deep\. Flatten it/);
    expect(await invalid({ actionTools: { '1buy': 'publish_component' } })).toMatch(/^actionTools\["1buy"\]: is not an action name/);
    expect(await invalid({ actionTools: { 'cp:size': 'publish_component' } })).toMatch(/not starting with "cp:"/);
    expect(await invalid({ actionTools: { buy: 'publish component' } })).toMatch(/^actionTools\["buy"\]: must be the name of a tool of this server/);
    expect(await invalid({ actionTools: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`a${i}`, 'get_component'])) })).toMatch(/maps 21 actions; the limit is 20/);
    expect(repos.state.apps).toEqual([]);
  });

  it("keeps organizations' schemas apart: the same $id twice is fine, and a $ref does not reach another schema", async () => {
    const { save } = await aTeam();
    await save({ inputSchema: { $id: 'price', type: 'object', properties: { a: { type: 'string' } } } });
    await save({ inputSchema: { $id: 'price', type: 'object', properties: { b: { type: 'number' } } } });
    expect(await refusal(save({ inputSchema: { type: 'object', properties: { x: { $ref: 'price' } } } }))).toMatchObject({ code: ErrorCode.InvalidInput });
  });
});

describe('checking the arguments of an app tool', () => {
  it('passes matching arguments and names the path of the first problem otherwise', () => {
    expect(appArgumentsProblem(PRICE, { price: '12 €' })).toBeNull();
    expect(appArgumentsProblem(null, { anything: true })).toBeNull();
    expect(appArgumentsProblem(PRICE, {})).toBe("the arguments must have required property 'price' (input schema #/required)");
    expect(appArgumentsProblem(PRICE, { price: 12 })).toBe('price must be string (input schema #/properties/price/type)');
    expect(appArgumentsProblem(PRICE, { price: '1', lines: [{ qty: 1 }, { qty: 'two' }] })).toBe('lines.1.qty must be integer (input schema #/properties/lines/items/properties/qty/type)');
    expect(appArgumentsProblem(PRICE, ['price'])).toBe('the arguments must be an object');
    expect(appArgumentsProblem(null, null)).toBe('the arguments must be an object');
    const tree = { type: 'object', properties: { child: { $ref: '#' } } };
    let args: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i += 1) args = { child: args };
    expect(appArgumentsProblem(tree, { child: { child: {} } })).toBeNull();
    expect(appArgumentsProblem(tree, args)).toBe('the arguments nest too deeply');
  });

  it('matches patterns in linear time, and refuses at save the ones that need backtracking', async () => {
    // With a backtracking engine this one pattern on this one string would run for minutes.
    const nested = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
    expect(appArgumentsProblem(nested, { code: `${'a'.repeat(60)}b` })).toBe('code must match pattern "^(a+)+$" (input schema #/properties/code/pattern)');
    expect(appArgumentsProblem(nested, { code: 'aaa' })).toBeNull();
    const { save } = await aTeam();
    const lookahead = { type: 'object', properties: { code: { type: 'string', pattern: '^(?=a)' } } };
    expect(await refusal(save({ inputSchema: lookahead }))).toMatchObject({ code: ErrorCode.InvalidInput, message: expect.stringMatching(/unsupported Perl syntax/) });
  });
});

describe('app tool names', () => {
  const live = (componentName: string, organizationName: string, version: number | null, componentId = randomUUID()): LiveApp => ({
    app: {
      componentId,
      componentName,
      organizationId: organizationName,
      environmentId: randomUUID(),
      environmentName: 'prod',
      title: componentName,
      description: '',
      inputSchema: null,
      actionTools: {},
      updatedBy: randomUUID(),
      updatedAt: new Date(),
    },
    organizationName,
    release: version === null ? null : { variantId: randomUUID(), version },
  });

  it('slugs the component name and adds the version; an app without a release has no tool', () => {
    const price = live('Price Tag (new!)', 'Acme', 3);
    const tools = appTools([price, live('Crème brûlée', 'Acme', 12), live('価格表', 'Acme', 1), live('Empty', 'Acme', null)]);
    expect(tools.map((t) => t.name)).toEqual(['show_price_tag_new_v3', 'show_creme_brulee_v12', 'show_component_v1']);
    expect(tools[0]).toEqual({ name: 'show_price_tag_new_v3', resourceUri: `ui://apps/${price.app.componentId}/v3.html`, live: price });
  });

  it('prefixes the organization only when two organizations share the component name', () => {
    const tools = appTools([live('Banner', 'Acme Shop', 2), live('banner', 'Beta GmbH', 5), live('Footer', 'Acme Shop', 1)]);
    expect(tools.map((t) => t.name)).toEqual(['show_acme_shop_banner_v2', 'show_beta_gmbh_banner_v5', 'show_footer_v1']);
  });

  it('tells apart names that are still the same by the id, and stays within 64 characters', () => {
    const a = live('Price tag', 'Acme', 1, '0a1b2c3d-0000-4000-8000-000000000000');
    const b = live('Price-Tag', 'Acme', 1, '9f8e7d6c-0000-4000-8000-000000000000');
    expect(appTools([a, b]).map((t) => t.name)).toEqual(['show_acme_price_tag_0a1b2c3d_v1', 'show_acme_price_tag_9f8e7d6c_v1']);
    const long = appTools([live('A component with a very long name indeed, longer than any', 'An organization with a long name', 99_999), live('A component with a very long name indeed!', 'An organization with a long name', 1)]);
    for (const tool of long) expect(tool.name.length).toBeLessThanOrEqual(64);
    expect(new Set(long.map((t) => t.name)).size).toBe(2);
  });
});

describe("a member's app tools", () => {
  it("lists the apps of all the member's organizations, with the release of each app's environment", async () => {
    const { save, deps, member, owner, componentId, variants, objects } = await aTeam();
    await save({ environment: 'prod' });
    // The member's own organization has a Banner too.
    const own = await anUploadedComponent(deps, objects, member.actor, { name: 'Banner' });
    released(await publishVariant({ actor: member.actor, componentId: own.componentId, environment: 'staging', variantId: own.variantId }, deps));
    await saveComponentApp({ actor: member.actor, componentId: own.componentId, settings: settings() }, deps);
    const names = async (actor = member.actor) => (await listMemberAppTools({ actor }, deps)).map((tool) => tool.name).sort();
    expect(await names()).toEqual([expect.stringMatching(/^show_.+_banner_v1$/), expect.stringMatching(/^show_.+_banner_v1$/)]);
    expect(await names(owner.actor)).toEqual(['show_banner_v1']);
    released(await publishVariant({ actor: owner.actor, componentId, environment: 'prod', variantId: variants[2] }, deps));
    expect(await names(owner.actor)).toEqual(['show_banner_v3']);
  });
});
