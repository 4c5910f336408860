import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { createConsumer, expectRegistryReachable, npmInstall, serveBuilt, typeCheckAndBuild } from './support/consumer-app.js';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { exportProblems, filesDefiningElements, pack, type PackedPackage } from './support/packed-package.js';
import { componentFrames, componentHtml, leftovers, openProbed } from './support/sdk-probes.js';

/*
 * The packages as users get them: `pnpm pack` tarballs of @component-platform/host
 * and @component-platform/vue, checked, then installed with npm (and React, Vue, Vite,
 * TypeScript from the registry, pinned in test/host/consumers/*) into a React + Vite
 * app and a Vue + Vite app outside the workspace. Each type-checks (strict), builds,
 * and renders a released component of the harness's delivery API in Chromium.
 */

// Raised from 8 KB by the experiences' assignment (packages/host/CHANGELOG.md, 1.2.0).
const SDK_BUDGET_BYTES = 8960;

let harness: HostHarness;
let work: string;
let host: PackedPackage;
let vue: PackedPackage;
const apps = new Map<string, { url: string; built: string[] }>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cp-packages-'));
  // The installs wait on the network most of the time: the stack and Chromium start meanwhile.
  const consumers = async (): Promise<Map<string, { dir: string; built: string[] }>> => {
    [host, vue] = await Promise.all([pack('@component-platform/host', work), pack('@component-platform/vue', work), expectRegistryReachable(work)]);
    const dirs = [createConsumer('react', work, [host]), createConsumer('vue', work, [host, vue])];
    await Promise.all(dirs.map(npmInstall));
    const built = await Promise.all(dirs.map(typeCheckAndBuild));
    return new Map([
      ['react', { dir: dirs[0]!, built: built[0]! }],
      ['vue', { dir: dirs[1]!, built: built[1]! }],
    ]);
  };
  // Settled both, so that afterAll closes a harness that started while the apps failed.
  const [started, made] = await Promise.allSettled([startHostHarness(), consumers()]);
  if (started.status === 'fulfilled') harness = started.value;
  if (made.status === 'rejected') throw made.reason;
  if (started.status === 'rejected') throw started.reason;
  for (const [name, { dir, built }] of made.value) apps.set(name, { url: serveBuilt(harness, name, dir), built });
}, 300_000);

afterAll(async () => {
  await harness?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

it.each(['host', 'vue'])('packs %s: only dist/, README, CHANGELOG and LICENSE, every exports target, types first, sideEffects where the element is defined', (which) => {
  const packed = which === 'host' ? host : vue;
  expect(exportProblems(packed)).toEqual([]);
  const stray = packed.files.filter((file) => !/^(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/.+)$/.test(file) || /(^|\/)(src|test)\/|\.test\./.test(file));
  expect(stray).toEqual([]);
  expect(packed.files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']));
  expect(packed.manifest.license).toBe('MIT');
  expect(readFileSync(join(packed.root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  expect(packed.manifest.sideEffects === false ? [] : packed.manifest.sideEffects).toEqual(filesDefiningElements(packed));
  // pnpm rewrites workspace: ranges on pack; one left would not install.
  expect(JSON.stringify([packed.manifest.dependencies, packed.manifest.peerDependencies])).not.toContain('workspace:');
});

it('declares the peers and the SDK dependency, and keeps the SDK file within its budget', () => {
  expect(host.manifest.peerDependencies).toEqual({ react: '^18.0.0 || ^19.0.0' });
  expect(host.manifest.peerDependenciesMeta).toEqual({ react: { optional: true } });
  expect(Object.keys(host.manifest.dependencies ?? {})).not.toContain('react');
  expect(vue.manifest.peerDependencies).toEqual({ vue: '^3.3.0' });
  expect(vue.manifest.dependencies).toEqual({ '@component-platform/host': `^${host.manifest.version}` });

  const sdk = readFileSync(join(host.root, 'dist/cp-host.js'));
  // The browser file imports nothing: a page loads it alone (the server entry's dependencies stay on the server).
  expect(sdk.toString()).not.toMatch(/\bfrom\s*["'](?!\.)|\bimport\s*\(?\s*["'](?!\.)/);
  const brotli = brotliCompressSync(sdk, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  expect(brotli).toBeLessThanOrEqual(SDK_BUDGET_BYTES);
});

const card = (label: string): string =>
  componentHtml(
    `${label} card`,
    `const root = window.cpRoot, send = window.cpSend;
window.cpReceive = (data) => { root.getElementById('data').textContent = data.greeting; };
root.getElementById('send').addEventListener('click', () => send('clicked', { n: 1 }));`,
  ).replace('</p>', '</p><p id="data"></p><button id="send">Send</button>');

interface ConsumerWindow {
  consumerLog: string[];
  setComponentId(id: string): void;
  setGreeting(greeting: string): void;
  hide(): void;
}

it.each([
  ['react', 'React'],
  ['vue', 'Vue'],
])('a %s + Vite app built from the tarballs renders a released component, sends data, gets actions, remounts, unmounts', async (name, label) => {
  const app = apps.get(name)!;
  const [{ componentId, variantId }, other] = await Promise.all([harness.aComponent(card(label), 'prod'), harness.aComponent(card(`${label} other`), 'prod')]);
  const { page, consoleErrors } = await openProbed(harness, `${app.url}?${new URLSearchParams({ componentId, baseUrl: harness.delivery.url })}`);
  const frame = page.frameLocator('.consumer-card iframe');
  await frame.locator('#data', { hasText: `from ${label}` }).waitFor();
  expect(await frame.locator('#text').textContent()).toBe(`${label} card`);

  await page.evaluate(() => (window as unknown as ConsumerWindow).setGreeting('second'));
  await frame.locator('#data', { hasText: 'second' }).waitFor({ timeout: 10_000 });
  await frame.locator('#send').click();
  await page.waitForFunction(() => (window as unknown as ConsumerWindow).consumerLog.some((entry) => entry.startsWith('action')));

  // Another component id: the other component in place of the first, with the data sent last.
  await page.evaluate((id) => (window as unknown as ConsumerWindow).setComponentId(id), other.componentId);
  await frame.locator('#text', { hasText: `${label} other card` }).waitFor({ timeout: 10_000 });
  await frame.locator('#data', { hasText: 'second' }).waitFor({ timeout: 10_000 });
  expect(await componentFrames(page)).toBe(1);
  expect(await page.evaluate(() => (window as unknown as ConsumerWindow).consumerLog)).toEqual([
    `load ${variantId}`,
    'action clicked {"n":1}',
    `load ${other.variantId}`,
  ]);

  await page.evaluate(() => (window as unknown as ConsumerWindow).hide());
  await page.locator('#gone').waitFor();
  expect(await leftovers(page)).toMatchObject({ frames: 0, openSources: 0 });
  expect(consoleErrors).toEqual([]);
  // The SDK is bundled into the app once, not emitted beside it as an asset.
  expect(app.built.filter((file) => file.endsWith('.js'))).toHaveLength(1);
});
