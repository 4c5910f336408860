import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentFrames, componentHtml, leftovers, openProbed, waitForEvents } from './support/sdk-probes.js';

/*
 * The React binding in a small React app, bundled at test time with esbuild
 * from the built `@component-platform/host/react` (dist/react.js and the SDK file beside it)
 * and served by the host page server; once with React 19 and once with React 18
 * (the `react-18` / `react-dom-18` aliases). Real delivery API, real Chromium.
 */

let harness: HostHarness;

beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

const APP = `
import { createElement as h, StrictMode, useState, version } from 'react';
import { createRoot } from 'react-dom/client';
import { CpComponent } from '@component-platform/host/react';

window.log = [];
window.reactVersion = version;
function App() {
  const [data, setData] = useState({ greeting: 'first' });
  const [shown, setShown] = useState(true);
  window.setData = setData;
  window.setShown = setShown;
  return shown
    ? h(CpComponent, {
        ...window.appProps,
        data,
        className: 'card-host',
        style: { border: '1px solid rgb(255, 0, 0)' },
        onLoad: (detail) => window.log.push(['load', detail.variantId]),
        onError: (detail) => window.log.push(['error', detail.problem.code]),
        onAction: (action, payload) => window.log.push(['action', action, payload]),
      })
    : h('p', { id: 'gone' }, 'gone');
}
createRoot(document.getElementById('root')).render(h(StrictMode, null, h(App)));
`;

const here = dirname(fileURLToPath(import.meta.url));

async function bundle(react: '18' | '19'): Promise<string> {
  const result = await build({
    stdin: { contents: APP, resolveDir: here, loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: react === '18' ? { react: 'react-18', 'react-dom': 'react-dom-18' } : {},
  });
  return result.outputFiles![0]!.text;
}

const card = componentHtml(
  'React card',
  `const root = window.cpRoot, send = window.cpSend;
window.cpReceive = (data) => { root.getElementById('data').textContent = data.greeting; };
root.getElementById('send').addEventListener('click', () => send('clicked', { n: 1 }));`,
).replace('</p>', '</p><p id="data"></p><button id="send">Send</button>');

interface AppWindow {
  log: unknown[][];
  reactVersion: string;
  setData(data: unknown): void;
  setShown(shown: boolean): void;
}

it.each(['19', '18'] as const)('renders, updates data, forwards actions and unmounts with React %s', async (react) => {
  const { componentId, variantId } = await harness.aComponent(card, 'prod');
  const script = harness.asset(`/react-${react}-app.js`, { body: await bundle(react), contentType: 'text/javascript' });
  const props = JSON.stringify({ componentId, env: 'prod', baseUrl: harness.delivery.url });
  const url = harness.page(`<!doctype html><html><body><div id="root"></div>
<script>window.appProps = ${props};</script><script type="module" src="${script}"></script></body></html>`);
  const { page, consoleErrors } = await openProbed(harness, url);
  expect(await page.evaluate(() => (window as unknown as AppWindow).reactVersion)).toMatch(new RegExp(`^${react}\\.`));
  await waitForEvents(page, 'cp-load');
  const frame = page.frameLocator('.card-host iframe');
  expect(await frame.locator('#text').textContent()).toBe('React card');
  await page.waitForFunction(() => (window as unknown as AppWindow).log.some((entry) => entry[0] === 'load'));
  expect(await frame.locator('#data').textContent()).toBe('first');
  // StrictMode mounts, unmounts and mounts again: one frame remains.
  expect(await componentFrames(page)).toBe(1);
  expect(await page.locator('.card-host').evaluate((el) => el.style.border)).toBe('1px solid rgb(255, 0, 0)');

  await page.evaluate(() => (window as unknown as AppWindow).setData({ greeting: 'second' }));
  await frame.locator('#data', { hasText: 'second' }).waitFor();

  await frame.locator('#send').click();
  await page.waitForFunction(() => (window as unknown as AppWindow).log.some((entry) => entry[0] === 'action'));

  const log = await page.evaluate(() => (window as unknown as AppWindow).log);
  expect(log.filter((entry) => entry[0] !== 'action')).toEqual([['load', variantId]]);
  expect(log.filter((entry) => entry[0] === 'action')).toEqual([['action', 'clicked', { n: 1 }]]);

  await page.evaluate(() => (window as unknown as AppWindow).setShown(false));
  await page.locator('#gone').waitFor();
  expect(await leftovers(page)).toMatchObject({ frames: 0, openSources: 0 });
  expect(consoleErrors).toEqual([]);
});
