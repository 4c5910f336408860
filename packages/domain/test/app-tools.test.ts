import type { LiveApp } from '../src/entities/component-app.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import { lookUpAppTool } from '../src/rules/app-tools.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { getAppVersion } from '../src/use-cases/component-apps/get-app-version.js';
import { saveComponentApp } from '../src/use-cases/component-apps/save-component-app.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { anUploadedComponent, aUser } from './builders.js';

/** The lookup of a called `show_…` name, and the read of an app's version (docs/mcp-apps.md, section 2). */
const live = (
  componentName: string,
  organizationName: string,
  version: number | null,
  componentId = componentName,
): LiveApp => ({
  app: {
    componentId,
    componentName,
    organizationId: organizationName,
    environmentId: 'env',
    environmentName: 'prod',
    title: componentName,
    description: 'd',
    inputSchema: null,
    actionTools: {},
    updatedBy: 'u',
    updatedAt: new Date(0),
  },
  organizationName,
  release: version === null ? null : { variantId: `v${version}`, version },
});

describe('lookUpAppTool', () => {
  const apps = [
    live('Price tag', 'Acme', 3),
    live('Banner', 'Acme', null),
    live('Hero', 'Acme', 1, 'h1'),
    live('Hero', 'Other', 2, 'h2'),
  ];

  test('the current name, and names made unique by the organization', () => {
    expect(lookUpAppTool(apps, 'show_price_tag_v3')).toMatchObject({
      kind: 'current',
      tool: { name: 'show_price_tag_v3' },
    });
    expect(lookUpAppTool(apps, 'show_other_hero_v2')).toMatchObject({
      kind: 'current',
      tool: { live: { app: { componentId: 'h2' } } },
    });
  });

  test("another release's name answers the current tool", () => {
    expect(lookUpAppTool(apps, 'show_price_tag_v2')).toMatchObject({
      kind: 'outdated',
      current: { name: 'show_price_tag_v3' },
    });
  });

  test('an app without a release, under any name it would take', () => {
    expect(lookUpAppTool(apps, 'show_banner_v4')).toMatchObject({
      kind: 'unreleased',
      live: { app: { componentName: 'Banner' } },
    });
    const twoBanners = [live('Banner', 'Acme', null, 'b1'), live('Banner', 'Other', null, 'b2')];
    expect(lookUpAppTool(twoBanners, 'show_other_banner_v2')).toMatchObject({
      kind: 'unreleased',
      live: { app: { componentId: 'b2' } },
    });
  });

  test('anything else is unknown', () => {
    for (const name of ['show_nothing_v1', 'show_price_tag', 'price_tag_v3', 'show__v1'])
      expect(lookUpAppTool(apps, name)).toEqual({ kind: 'unknown' });
  });
});

describe('getAppVersion', () => {
  test('a member reads any version of an app; a stranger, a component that is no app and an unknown version are all not found', async () => {
    const { deps, objects } = inMemoryDeps();
    const owner = await aUser(deps);
    const stranger = await aUser(deps);
    const first = await anUploadedComponent(deps, objects, owner.actor, {
      name: 'Price tag',
      html: '<p>v1</p>',
    });
    const { componentId } = first;
    const second = await anUploadedComponent(deps, objects, owner.actor, {
      componentId,
      html: '<p>v2</p>',
    });
    const version = (actor: { userId: string }, n: number) =>
      getAppVersion({ actor, componentId, version: n }, deps);
    await expect(version(owner.actor, 1)).rejects.toMatchObject({ code: ErrorCode.NotFound });

    await publishVariant(
      { actor: owner.actor, componentId, environment: 'prod', variantId: second.variantId },
      deps,
    );
    const settings = {
      environment: 'prod',
      title: 'Price',
      description: 'A price.',
      inputSchema: null,
      actionTools: {},
    };
    await saveComponentApp({ actor: owner.actor, componentId, settings }, deps);
    const read = await version(owner.actor, 1);
    expect([read.variant.id, new TextDecoder().decode(read.content), read.app.title]).toEqual([
      first.variantId,
      '<p>v1</p>',
      'Price',
    ]);
    expect((await version(owner.actor, 2)).variant.id).toBe(second.variantId);
    for (const [actor, n] of [
      [stranger.actor, 2],
      [owner.actor, 3],
      [owner.actor, 0],
      [owner.actor, 1.5],
    ] as const) {
      await expect(version(actor, n)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    }
  });
});
