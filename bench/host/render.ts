import type { HostHarness } from '../../apps/delivery-api/test/host/support/host-harness.js';

/** A typical small component: inline style, markup, one inline script using the contract. */
export const CARD = `<!doctype html><html><head><meta charset="utf-8"><style>.card{font:16px system-ui;padding:1rem;border:1px solid #ccc;border-radius:8px}</style></head>
<body><div class="card"><h2>Card</h2><p id="text">Loading…</p><button id="go">Go</button></div>
<script>const root = window.cpRoot, send = window.cpSend;
window.cpReceive = (data) => { root.getElementById('text').textContent = data.text; };
root.getElementById('go').addEventListener('click', () => send('go', {}));</script></body></html>`;

export interface RenderTrial {
  /** From the end of the /consume response (Resource Timing) to `ready`. */
  readonly afterResponseMs: number;
  /** From `mount()` to `ready`. */
  readonly totalMs: number;
  /** Baseline of the same round: a bare sandboxed srcdoc frame, from insertion to its script's first message. */
  readonly bareFrameMs: number;
}

/** What the bench page defines (page.evaluate callbacks run in the page: they name its globals). */
interface Probe {
  trial(): Promise<Omit<RenderTrial, 'bareFrameMs'>>;
  bare(): Promise<number>;
}

/**
 * Mounts a released, cached component `trials` times (after `warmup` unmeasured
 * mounts that fill the delivery API's cache and the browser's HTTP cache) and
 * times each render from the moment its response arrived. The page shows one
 * instance throughout, as a host page does when it mounts another (in iframe
 * isolation its frame keeps the frames' renderer process alive). Iframe isolation takes
 * the warm frame the SDK keeps after a render; `cold`: the warm frame is removed
 * before each mount, so the mount's frame loads during its request (what browsers
 * without `moveBefore` do for every mount).
 */
export async function measureRender(host: HostHarness, isolation: 'iframe' | 'shadow', trials: number, warmup = 3, cold = false): Promise<RenderTrial[]> {
  const { componentId } = await host.aComponent(CARD, 'prod');
  const { page, context } = await host.open(host.hostPage(`<script type="module">
import { mount } from '${host.delivery.url}/host/v1.js';
await mount(document.body.appendChild(document.createElement('div')), { componentId: '${componentId}', env: 'prod', isolation: '${isolation}', data: { text: 'shown throughout' } }).ready;
window.trial = async () => {
  ${cold ? "document.querySelector('[data-cp-warm]')?.remove();" : ''}
  performance.clearResourceTimings();
  const element = document.createElement('div');
  document.body.append(element);
  const start = performance.now();
  const handle = mount(element, { componentId: '${componentId}', env: 'prod', isolation: '${isolation}', data: { text: 'hello' } });
  await handle.ready;
  const ready = performance.now();
  const entry = performance.getEntriesByType('resource').filter((e) => e.name.includes('/consume?')).pop();
  handle.unmount();
  element.remove();
  return { afterResponseMs: ready - entry.responseEnd, totalMs: ready - start };
};
// Baseline: what the browser itself takes to create a sandboxed srcdoc frame and run one script in it.
window.bare = () => new Promise((resolve) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.srcdoc = '<p>bare</p><script>parent.postMessage("bare", "*")<' + '/script>';
  const start = performance.now();
  addEventListener('message', function done(event) {
    if (event.source !== frame.contentWindow) return;
    removeEventListener('message', done);
    frame.remove();
    resolve(performance.now() - start);
  });
  document.body.append(frame);
});
window.sdkReady = true;
</script>`));
  try {
    await page.waitForFunction(() => (globalThis as unknown as { sdkReady?: boolean }).sdkReady === true);
    const results: RenderTrial[] = [];
    // Alternating with the baseline, so both see the same machine load.
    for (let i = 0; i < warmup + trials; i++) {
      const result = await page.evaluate(() => (globalThis as unknown as Probe).trial());
      const bareFrameMs = await page.evaluate(() => (globalThis as unknown as Probe).bare());
      if (i >= warmup) results.push({ ...result, bareFrameMs });
    }
    return results;
  } finally {
    await context.close();
  }
}
