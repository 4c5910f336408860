import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bucketOf } from '@cp/domain';
import type { Page } from '@cp/browser-testing';
import { build } from 'esbuild';
import type * as Arm from '../../../../packages/host/src/experience/arm.js';
import { startAssignmentFixture, type AssignmentFixture, type Segment } from './support/assignment-fixture.js';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, openProbed, waitForEvents, type SdkModule } from './support/sdk-probes.js';

/*
 * Experiences and rollouts in the host SDK (docs/experiences.md): the user's arm is picked in
 * the page from the `assignment` descriptor of /consume, with the key and attributes the host
 * passes, and read by its name. The descriptor is served by a stand-in of the delivery API's
 * wire format (support/assignment-fixture.ts) over the real /consume bodies of two variants;
 * real Chromium.
 */

/** The SDK's assignment, bundled alone for the page. */
type ArmModule = typeof Arm;

let harness: HostHarness;
let fixture: AssignmentFixture;
let componentId: string;
/** The released variant (the fallback, arm `release`) and the candidate (the arm named for it). */
let releaseId: string;
const candidate = { variantId: '', arm: '' };

beforeAll(async () => {
  harness = await startHostHarness();
  ({ componentId, variantId: releaseId } = await harness.aComponent(componentHtml('one'), 'prod'));
  const { variantId: next } = await harness.aVariant(componentId, componentHtml('two'));
  const read = async (query: string): Promise<{ item: { consume_variant: { name: string }[] } }> =>
    (await fetch(`${harness.delivery.url}/consume?id=${componentId}&${query}`)).json() as never;
  const [released, preview] = await Promise.all([read('env=prod'), read('preview=true')]);
  Object.assign(candidate, { variantId: next, arm: preview.item.consume_variant[0]!.name });
  fixture = await startAssignmentFixture(harness.delivery.url, componentId, 'prod', released, { [candidate.arm]: preview });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await harness?.close();
});

/** A key whose bucket under `salt` is in [from, to). */
function keyIn(salt: string, from: number, to: number): string {
  for (let i = 0; ; i++) {
    const key = `reader-${i}-7c1e`;
    const bucket = bucketOf(salt, key);
    if (bucket >= from && bucket < to) return key;
  }
}

const element = (id: string, attributes: string): string =>
  `<cp-component id="${id}" component-id="${componentId}" env="prod" base-url="${fixture.url}" analytics="off" ${attributes}></cp-component>`;

const loadsOf = async (page: Page, count: number): Promise<Record<string, string>> =>
  Object.fromEntries((await waitForEvents(page, 'cp-load', count)).map((event) => [event.target, event.detail.variantId!]));

describe('assignment', () => {
  /** The cases every implementation passes (packages/domain/test/assignment-cases.json, docs/experiences.md). */
  interface Cases {
    readonly buckets: readonly { salt: string; key: string; bucket: number }[];
    readonly segments: readonly { segments: Segment[]; key: string | null; attributes: Record<string, string>; arm: string | null }[];
  }

  it('passes the shared assignment cases, in Chromium', async () => {
    const cases = JSON.parse(readFileSync(new URL('../../../../packages/domain/test/assignment-cases.json', import.meta.url), 'utf8')) as Cases;
    expect(cases.buckets.length).toBeGreaterThanOrEqual(1000);
    const [bundle] = (
      await build({ entryPoints: [fileURLToPath(new URL('../../../../packages/host/src/experience/arm.ts', import.meta.url))], bundle: true, format: 'esm', write: false })
    ).outputFiles;
    const module = harness.asset('/experience-arm.js', { body: bundle!.text, contentType: 'text/javascript' });
    const { context, page } = await harness.open(harness.page('<!doctype html><title>Assignment</title>'));
    const wrong = await page.evaluate(
      async ([url, { buckets, segments }]) => {
        const { bucketOf: bucket, armOf } = (await import(url)) as ArmModule;
        return [
          ...buckets.filter((c) => bucket(c.salt, c.key) !== c.bucket),
          ...segments.filter((c) => armOf(c.segments, c.key ?? undefined, c.attributes) !== (c.arm ?? 'release')),
        ];
      },
      [module, cases] as const,
    );
    expect(wrong).toEqual([]);
    await context.close();
  });
});

it('renders the arm each element picks from its key and attributes, which never leave the page', async () => {
  const inSplit = keyIn('split', 0, 50_000);
  const outside = keyIn('split', 50_000, 100_000);
  fixture.assign([
    // One arm: taken without a key.
    { rules: [{ attribute: 'country', operator: 'equals', values: ['DE'] }], salt: 'germany', arms: [{ arm: candidate.arm, upTo: 100_000 }] },
    { rules: [], salt: 'split', arms: [{ arm: candidate.arm, upTo: 50_000 }, { arm: 'release', upTo: 100_000 }] },
  ]);
  const asked = fixture.requests.length;
  const { context, page } = await openProbed(
    harness,
    harness.hostPage(
      [
        element('germany', `attributes='{"country":"DE"}'`),
        // A split without a key: the fallback.
        element('anonymous', `attributes='{"country":"FR"}'`),
        element('in-split', `key="${inSplit}" attributes='{"country":"FR"}'`),
        element('outside', `key="${outside}"`),
        element('exported', `key="${inSplit}" source="export"`),
      ].join(''),
    ),
  );
  expect(await loadsOf(page, 5)).toEqual({
    germany: candidate.variantId,
    anonymous: releaseId,
    'in-split': candidate.variantId,
    outside: releaseId,
    exported: candidate.variantId,
  });
  const sent = fixture.requests.slice(asked);
  expect(sent.map((request) => request.url).filter((url) => url.includes('arm'))).toEqual(
    expect.arrayContaining([expect.stringContaining(`&arm=${candidate.arm}&rev=1`), expect.stringContaining(`/prod/arms/${candidate.arm}.json`)]),
  );
  expect(sent.filter((request) => /reader-|country|DE|FR/.test(JSON.stringify(request)))).toEqual([]);
  await context.close();
});

it('picks again from the current mapping when the arm asked for is gone', async () => {
  fixture.assign([]);
  const asked = fixture.requests.length;
  const key = keyIn('stale', 0, 100_000);
  // A fallback cached from before the rollout stopped still names the candidate's arm.
  const stale = { revision: 1, kind: 'rollout', arm: 'release', segments: [{ rules: [], salt: 'stale', arms: [{ arm: candidate.arm, upTo: 100_000 }] }] };
  const { context, page } = await openProbed(harness, harness.hostPage(element('c', `key="${key}"`)), (p) =>
    p.route(`${fixture.url}/consume?id=${componentId}&env=prod`, async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...(await answer.json()), assignment: stale } });
    }),
  );
  expect(await loadsOf(page, 1)).toEqual({ c: releaseId });
  expect(fixture.requests.slice(asked).filter((request) => request.url.includes('&arm='))).toHaveLength(1);
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

it('live: a rollout stopped switches the users of its canary within 2 s without a blank frame, and leaves the others alone', async () => {
  const canary = keyIn('rollout', 0, 5_000);
  const other = keyIn('rollout', 5_000, 100_000);
  const rollout = (weight: number): Segment[] => [{ rules: [], salt: 'rollout', arms: [{ arm: candidate.arm, upTo: weight }, { arm: 'release', upTo: 100_000 }] }];
  fixture.assign(rollout(5_000));
  const { context, page } = await openProbed(
    harness,
    harness.hostPage(`${element('c', `key="${canary}" live`)}${element('d', `key="${other}" live`)}
<script type="module">
  const c = document.getElementById('c');
  c.data = { kept: true };
  window.emptyFrames = 0;
  const shown = (frame) => frame.checkVisibility({ visibilityProperty: true });
  const sample = () => {
    if (window.sdkEvents.some((e) => e.type === 'cp-load' && e.target === 'c') && ![...c.shadowRoot.querySelectorAll('iframe')].some(shown)) window.emptyFrames++;
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
</script>`),
  );
  expect(await loadsOf(page, 2)).toEqual({ c: candidate.variantId, d: releaseId });
  await page.waitForFunction(() => window.sdkSources.some((source) => source.readyState === EventSource.OPEN));
  await page.evaluate(() => ((window as unknown as { dFrame: Element }).dFrame = document.getElementById('d')!.shadowRoot!.querySelector('iframe')!));

  const stopped = Date.now();
  fixture.assign(rollout(0));
  const [, switched] = await waitForEvents(page, 'cp-load', 2, 'c');
  expect(Date.now() - stopped).toBeLessThan(2000);
  expect(switched!.detail.variantId).toBe(releaseId);
  expect(await page.frameLocator('#c iframe').locator('#text').textContent()).toBe('one');
  expect(await page.evaluate(() => (window as unknown as { emptyFrames: number }).emptyFrames)).toBe(0);
  // d read the new mapping too (its fallback, conditionally) and kept its frame.
  await page.waitForTimeout(300);
  expect((await waitForEvents(page, 'cp-load', 1, 'd')).length).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { dFrame: Element }).dFrame === document.getElementById('d')!.shadowRoot!.querySelector('iframe'))).toBe(true);
  await context.close();
});
