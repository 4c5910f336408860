/*
 * `cpc dev`: from a save of the watched file to the new version swapped in, in Chromium.
 * Each run writes a new version of the file (Node's clock just before the write) and waits for
 * the page's `cp-load` of it (the page's clock, read in its listener); both clocks are
 * `performance.timeOrigin + performance.now()` of one machine. The run also notes when the dev
 * page posted its verdict on the new version (Playwright's request event, Node's clock), which
 * splits the time into the server's read and checks plus the page's probe run, and the
 * announcement, the SDK's `/consume` and the render of the swap.
 *
 *   node --conditions=source --import tsx bench/cli-dev/reload.ts   # BENCH_RUNS=30
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../packages/browser-testing/src/index.js';
import { startDevServer } from '../../packages/cli/src/dev/index.js';
import { ms, percentile } from '../host/stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TARGET_MS = 1000;
const now = (): number => performance.timeOrigin + performance.now();
const version = (n: number) => `<!doctype html><html><body><p id="v">version ${n}</p><p id="d"></p>
<script>{ const root = window.cpRoot; window.cpReceive = (data) => { root.getElementById('d').textContent = data.greeting ?? ''; }; }</script></body></html>`;

const dir = await mkdtemp(join(tmpdir(), 'cpc-dev-bench-'));
const file = join(dir, 'index.html');
await writeFile(file, version(0));
const server = await startDevServer({ file, port: 0, log: { info: () => undefined, error: (line) => console.error(line) } });
const browser = await launchChromium();
try {
  const page = await (await browser.newContext()).newPage();
  let verdictAt = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/dev/verdict')) verdictAt = now();
  });
  // Before the page's own script: cp-load bubbles (composed) up to the window.
  await page.addInitScript(() => {
    const loads = new Map<string, number>();
    (globalThis as unknown as { loads: typeof loads }).loads = loads;
    addEventListener('cp-load', (event) => {
      loads.set((event as CustomEvent<{ variantName: string }>).detail.variantName, performance.timeOrigin + performance.now());
    });
  });
  await page.goto(server.url);
  await page.locator('#data').fill('{"greeting":"kept"}');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.waitForFunction(() => (globalThis as unknown as { loads: Map<string, number> }).loads.has('v1'));
  const totals: number[] = [];
  const probes: number[] = [];
  for (let n = 1; n <= RUNS; n++) {
    const savedAt = now();
    await writeFile(file, version(n));
    // The first version shown is v1; each save after it is the next name.
    const name = `v${n + 1}`;
    const loaded = await page.waitForFunction((wanted) => (globalThis as unknown as { loads: Map<string, number> }).loads.get(wanted), name, { timeout: 30_000 });
    totals.push(Number(await loaded.jsonValue()) - savedAt);
    probes.push(verdictAt - savedAt);
  }
  const kept = await page.frameLocator('cp-component iframe').locator('#d').textContent();
  if (kept !== 'kept') throw new Error(`the host's data was lost across the swaps: ${kept}`);
  const p95 = percentile(totals, 95);
  console.log(`cpc dev, save -> swapped in Chromium, ${RUNS} runs`);
  console.log(`| p50 | p95 | max | save -> verdict posted, p50 | target |`);
  console.log(`| ${ms(percentile(totals, 50))} | ${ms(p95)} | ${ms(Math.max(...totals))} | ${ms(percentile(probes, 50))} | p95 within ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'met' : 'NOT met'} |`);
} finally {
  await browser.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
