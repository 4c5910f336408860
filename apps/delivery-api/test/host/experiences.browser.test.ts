import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assign, changeRollout, publishExperience, saveExperienceDraft, startRollout, stopRollout, type AssignmentSegment } from '@cp/domain';
import type { Page } from '@cp/browser-testing';
import { build } from 'esbuild';
import type * as Arm from '../../../../packages/host/src/experience/arm.js';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, openProbed, waitForEvents, type SdkModule } from './support/sdk-probes.js';

/*
 * Experiences and rollouts in the host SDK (docs/experiences.md) against the delivery API of the
 * test stack, set up through the domain's use cases: the user's arm is picked in the page from
 * the `assignment` descriptor of /consume with the key and attributes the host passes, and read
 * by its name; real Chromium. The export source's arm files are not covered here.
 */

/** The SDK's assignment, bundled alone for the page. */
type ArmModule = typeof Arm;

let harness: HostHarness;

beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);

afterAll(() => harness?.close());

/** A component whose release shows `one` (and the data it receives) and whose candidate shows `two`. */
async function aComponentWithCandidate(): Promise<{ componentId: string; releaseId: string; candidateId: string }> {
  const version = (text: string) => componentHtml(text, `{ const root = window.cpRoot; window.cpReceive = (data) => { root.getElementById('text').dataset.received = data.note; }; }`);
  const { componentId, variantId: releaseId } = await harness.aComponent(version('one'), 'prod');
  const { variantId: candidateId } = await harness.aVariant(componentId, version('two'));
  return { componentId, releaseId, candidateId };
}

/** The live assignment of the component's prod, once /consume serves it (the delivery cache learns of it through the change feed). */
async function liveAssignment(componentId: string): Promise<readonly AssignmentSegment[]> {
  const live = await harness.stack.repos.assignments.findLive(componentId, 'prod');
  if (!live) throw new Error('nothing is live');
  const servedRevision = async () =>
    ((await (await fetch(`${harness.delivery.url}/consume?id=${componentId}&env=prod`)).json()) as { assignment?: { revision: number } }).assignment?.revision;
  for (const at = Date.now(); (await servedRevision()) !== live.revision; ) {
    if (Date.now() - at > 10_000) throw new Error('the assignment did not reach /consume');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return live.segments;
}

/** The variant the domain serves the user (an arm of no variant is the release). */
const served = (segments: readonly AssignmentSegment[], releaseId: string, key: string | null, attributes: Record<string, string>): string =>
  assign(segments, key, attributes)?.variantId ?? releaseId;

/** A key the domain serves `variantId` under `segments`. */
function keyFor(segments: readonly AssignmentSegment[], releaseId: string, attributes: Record<string, string>, variantId: string): string {
  for (let i = 0; i < 100_000; i++) {
    const key = `reader-${i}-7c1e`;
    if (served(segments, releaseId, key, attributes) === variantId) return key;
  }
  throw new Error(`no key is assigned ${variantId} by ${JSON.stringify(segments)}`);
}

const element = (componentId: string, id: string, attributes: string): string =>
  `<cp-component id="${id}" component-id="${componentId}" env="prod" analytics="off" ${attributes}></cp-component>`;

const loadsOf = async (page: Page, count: number): Promise<Record<string, string>> =>
  Object.fromEntries((await waitForEvents(page, 'cp-load', count)).map((event) => [event.target, event.detail.variantId!]));

it('passes the shared assignment cases with the SDK\'s bundled code, in Chromium', async () => {
  /** packages/domain/test/assignment-cases.json; an arm of null is the fallback. */
  interface Cases {
    readonly hash: readonly { salt: string; key: string; bucket: number }[];
    readonly assign: readonly { segments: Arm.Segment[]; key: string | null; attributes: Record<string, string>; arm: string | null }[];
  }
  const cases = JSON.parse(readFileSync(new URL('../../../../packages/domain/test/assignment-cases.json', import.meta.url), 'utf8')) as Cases;
  expect(cases.hash.length).toBeGreaterThanOrEqual(1000);
  expect(cases.assign.length).toBeGreaterThan(0);
  const [bundle] = (
    await build({
      entryPoints: [fileURLToPath(new URL('../../../../packages/host/src/experience/arm.ts', import.meta.url))],
      bundle: true,
      minify: true,
      target: 'es2020',
      format: 'esm',
      write: false,
    })
  ).outputFiles;
  const module = harness.asset('/experience-arm.js', { body: bundle!.text, contentType: 'text/javascript' });
  const { context, page } = await harness.open(harness.page('<!doctype html><title>Assignment</title>'));
  const wrong = await page.evaluate(
    async ([url, { hash, assign: segments }]) => {
      const { bucketOf, armOf, RELEASE } = (await import(url)) as ArmModule;
      return [
        ...hash.filter((c) => bucketOf(c.salt, c.key) !== c.bucket),
        ...segments.filter((c) => armOf(c.segments, c.key ?? undefined, c.attributes) !== (c.arm ?? RELEASE)),
      ];
    },
    [module, cases] as const,
  );
  expect(wrong).toEqual([]);
  await context.close();
});

it('renders the arm the domain assigns each element from its key and attributes, which never leave the page', async () => {
  const { componentId, releaseId, candidateId } = await aComponentWithCandidate();
  const definition = {
    segments: [
      { name: 'germany', rules: [{ attribute: 'country', operator: 'equals' as const, values: ['DE'] }], arms: [{ variantId: candidateId, weight: 100_000 }] },
      { name: 'split', rules: [], arms: [{ variantId: candidateId, weight: 50_000 }, { variantId: releaseId, weight: 50_000 }] },
    ],
  };
  const target = { actor: harness.actor, componentId, environment: 'prod' };
  await saveExperienceDraft({ ...target, definition }, harness.stack.domain);
  await publishExperience({ ...target, phase: 'new' }, harness.stack.domain);
  const segments = await liveAssignment(componentId);
  const france = { country: 'FR' };
  const users: Record<string, { key?: string; attributes?: Record<string, string> }> = {
    // One arm: taken without a key.
    germany: { attributes: { country: 'DE' } },
    // A split without a key: the fallback.
    anonymous: { attributes: france },
    'in-split': { key: keyFor(segments, releaseId, france, candidateId), attributes: france },
    outside: { key: keyFor(segments, releaseId, {}, releaseId) },
  };
  const sent: { url: string; headers: Record<string, string> }[] = [];
  const { context, page, consoleErrors } = await openProbed(
    harness,
    harness.hostPage(
      Object.entries(users)
        .map(([id, { key, attributes }]) => element(componentId, id, `${key ? `key="${key}"` : ''} ${attributes ? `attributes='${JSON.stringify(attributes)}'` : ''}`))
        .join(''),
    ),
    async (p) => p.on('request', (request) => sent.push({ url: request.url(), headers: request.headers() })),
  );
  const expected = Object.fromEntries(
    Object.entries(users).map(([id, { key, attributes }]) => [id, served(segments, releaseId, key ?? null, attributes ?? {})]),
  );
  expect(Object.values(expected).sort()).toEqual([candidateId, candidateId, releaseId, releaseId].sort());
  expect(await loadsOf(page, 4)).toEqual(expected);
  expect(await page.frameLocator('#in-split iframe').locator('#text').textContent()).toBe('two');
  // The candidate was read as its arm, by name.
  expect(sent.some((request) => request.url.includes(`/consume?id=${componentId}&env=prod&arm=v2&rev=`))).toBe(true);
  const secrets = [users['in-split']!.key!, users.outside!.key!, 'country', 'FR', 'DE'];
  const leaks = sent.filter(({ url, headers }) =>
    [url, ...Object.entries(headers).flat()].some((text) => secrets.some((secret) => text.includes(secret)) || /^cp-(key|attributes)$/i.test(text)),
  );
  expect(leaks).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

it('picks again from the current mapping when the arm it asked for is gone', async () => {
  const { componentId, releaseId } = await aComponentWithCandidate();
  // A fallback a cache kept from before a rollout stopped still names the candidate's arm.
  const stale = { revision: 1, kind: 'rollout', arm: 'release', segments: [{ rules: [], salt: 'stale', arms: [{ arm: 'v2', upTo: 100_000 }] }] };
  const armReads: string[] = [];
  const { context, page } = await openProbed(harness, harness.hostPage(element(componentId, 'c', 'key="reader"')), async (p) => {
    p.on('request', (request) => {
      if (request.url().includes('&arm=')) armReads.push(request.url());
    });
    await p.route(`${harness.delivery.url}/consume?id=${componentId}&env=prod`, async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...(await answer.json()), assignment: stale } });
    });
  });
  expect(await loadsOf(page, 1)).toEqual({ c: releaseId });
  expect(armReads).toHaveLength(1);
  await context.close();
});

it('refuses keys and attributes it cannot pick with as INVALID_OPTIONS', async () => {
  const { context, page } = await openProbed(harness, harness.hostPage('<div id="target"></div>'));
  const details = await page.evaluate(async (base) => {
    const { mount } = (await import(`${base}/host/v1.js`)) as SdkModule;
    const refused = (attributes: unknown) =>
      mount(document.getElementById('target')!, { componentId: 'x', env: 'prod', attributes: attributes as Record<string, string> }).ready.then(
        () => 'rendered',
        (error: { problem: { code: string } }) => error.problem.code,
      );
    return Promise.all([
      refused(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`a${i}`, 'x']))),
      refused({ '1st': 'x' }),
      refused({ plan: 7 }),
      refused({ plan: 'p'.repeat(129) }),
      refused(['DE']),
    ]);
  }, harness.delivery.url);
  expect(details).toEqual(Array(5).fill('INVALID_OPTIONS'));
  await context.close();
});

it('live: a rollout stopped switches its canary users within 2 s without a blank frame, keeping their data, and leaves the others alone', async () => {
  const { componentId, releaseId, candidateId } = await aComponentWithCandidate();
  const target = { actor: harness.actor, componentId, environment: 'prod' };
  const started = await startRollout(
    { ...target, candidateVariantId: candidateId, stages: [{ weight: 1_000, holdMinutes: 60 }, { weight: 5_000, holdMinutes: 60 }] },
    harness.stack.domain,
  );
  if (started.outcome !== 'started') throw new Error(started.outcome);
  await changeRollout({ ...target, action: 'advance', expectedRevision: started.rollout.revision }, harness.stack.domain);
  const segments = await liveAssignment(componentId);
  const canary = keyFor(segments, releaseId, {}, candidateId);
  const other = keyFor(segments, releaseId, {}, releaseId);
  const { context, page, consoleErrors } = await openProbed(
    harness,
    harness.hostPage(`${element(componentId, 'c', `key="${canary}" live`)}${element(componentId, 'd', `key="${other}" live`)}
<script type="module">
  const c = document.getElementById('c');
  c.data = { note: 'kept' };
  window.emptyFrames = 0;
  const shown = (frame) => frame.checkVisibility({ visibilityProperty: true });
  const sample = () => {
    if (window.sdkEvents.some((e) => e.type === 'cp-load' && e.target === 'c') && ![...c.shadowRoot.querySelectorAll('iframe')].some(shown)) window.emptyFrames++;
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
</script>`),
  );
  expect(await loadsOf(page, 2)).toEqual({ c: candidateId, d: releaseId });
  await page.waitForFunction(() => window.sdkSources.some((source) => source.readyState === EventSource.OPEN));
  await page.evaluate(() => ((window as unknown as { dFrame: Element }).dFrame = document.getElementById('d')!.shadowRoot!.querySelector('iframe')!));

  const stopping = Date.now();
  await stopRollout(target, harness.stack.domain);
  const [, switched] = await waitForEvents(page, 'cp-load', 2, 'c');
  expect(Date.now() - stopping).toBeLessThan(2000);
  expect(switched!.detail.variantId).toBe(releaseId);
  const text = page.frameLocator('#c iframe').locator('#text');
  expect(await text.textContent()).toBe('one');
  expect(await text.getAttribute('data-received')).toBe('kept');
  expect(await page.evaluate(() => (window as unknown as { emptyFrames: number }).emptyFrames)).toBe(0);
  // d, on the release all along, was not rendered again and kept its frame.
  await page.waitForTimeout(300);
  expect((await waitForEvents(page, 'cp-load', 1, 'd')).length).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { dFrame: Element }).dFrame === document.getElementById('d')!.shadowRoot!.querySelector('iframe'))).toBe(true);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
