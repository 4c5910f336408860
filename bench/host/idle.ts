import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@cp/browser-testing';
import type { HostHarness } from '../../apps/delivery-api/test/host/support/host-harness.js';
import { CARD } from './render.js';

/*
 * What the warm frame the SDK keeps (packages/host/src/render/warm-frames.ts) costs while
 * nobody uses it: the memory and the CPU time, while idle, of every process of the browser
 * (read from /proc: Linux only), on a page that shows one component, with the warm frame and
 * after removing it.
 */

export interface IdleSample {
  /** Sum of the browser's processes' proportional set size (smaps_rollup Pss). */
  readonly pssKiB: number;
  readonly processes: number;
  /** User + system CPU time of those processes over the idle window. */
  readonly cpuMs: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** This process's descendants (the browser and its renderers, GPU, utility and zygote processes). */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const visit = (pid: number): void => {
    for (const [child, parent] of parents) if (parent === pid) found.push(child), visit(child);
  };
  visit(root);
  return found;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

function cpuTicks(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks;
}

function pss(pids: readonly number[]): number {
  let kib = 0;
  for (const pid of pids) kib += Number(/^Pss:\s+(\d+)/m.exec(read(`/proc/${pid}/smaps_rollup`) ?? '')?.[1] ?? 0);
  return kib;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A full garbage collection in the page and in every out-of-process frame, so that the samples compare live memory. */
async function collectGarbage(page: Page): Promise<void> {
  for (const target of [page, ...page.frames().slice(1)]) {
    // Frames in the page's own process have no session of their own: the page's collection covers them.
    const session = await page.context().newCDPSession(target).catch(() => null);
    await session?.send('HeapProfiler.collectGarbage');
    await session?.detach();
  }
}

async function sample(page: Page, windowMs: number): Promise<IdleSample> {
  await collectGarbage(page);
  const pids = descendants(process.pid);
  const before = cpuTicks(pids);
  await pause(windowMs);
  const after = descendants(process.pid);
  return { pssKiB: pss(after), processes: after.length, cpuMs: (cpuTicks(pids) - before) * TICK_MS };
}

/** One mount and unmount: the SDK then keeps (or makes again) its warm frame (loaded by the time the caller has settled). */
async function aWarmFrame(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as { mountOnce(): Promise<void> }).mountOnce());
  await page.locator('[data-cp-warm] iframe').waitFor({ state: 'attached' });
}

/**
 * `rounds` times, one sample with the warm frame and one without it (removed; a mount makes it
 * again), in alternating order so that drift over the run weighs on both. Each sample follows a
 * settling pause and a garbage collection; its CPU time is over `windowMs` of idleness.
 */
export async function measureIdle(host: HostHarness, rounds: number, windowMs = 5000, settleMs = 2000): Promise<{ warm: IdleSample[]; none: IdleSample[] }> {
  const { componentId } = await host.aComponent(CARD, 'prod');
  const { page, context } = await host.open(host.hostPage(`<div id="shown"></div><script type="module">
import { mount } from '${host.delivery.url}/host/v1.js';
const options = { componentId: '${componentId}', env: 'prod', data: { text: 'hello' } };
await mount(document.getElementById('shown'), options).ready;
window.mountOnce = async () => {
  const element = document.body.appendChild(document.createElement('div'));
  const handle = mount(element, options);
  await handle.ready;
  handle.unmount();
  element.remove();
};
window.sdkReady = true;
</script>`));
  try {
    await page.waitForFunction(() => (globalThis as unknown as { sdkReady?: boolean }).sdkReady === true);
    const warm: IdleSample[] = [];
    const none: IdleSample[] = [];
    const withIt = async () => {
      await aWarmFrame(page);
      await pause(settleMs);
      warm.push(await sample(page, windowMs));
    };
    const withoutIt = async () => {
      await page.evaluate(() => document.querySelector('[data-cp-warm]')?.remove());
      await pause(settleMs);
      none.push(await sample(page, windowMs));
    };
    for (let round = 0; round < rounds; round++) {
      for (const step of round % 2 === 0 ? [withIt, withoutIt] : [withoutIt, withIt]) await step();
    }
    return { warm, none };
  } finally {
    await context.close();
  }
}
