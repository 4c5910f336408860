/// <reference lib="dom" />
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { inComponentWindow, ISOLATIONS, mountPage, outcomeOf, waitInComponent } from './support/mount-page.js';

/*
 * Scripts run as a page runs them, in both isolations: classic (inline and
 * src) in document order, async once whenever loaded, defer and modules after
 * the classic ones in order, each exactly once; data blocks and nomodule never.
 * In shadow isolation the SDK runs them itself (scripts parsed in never run).
 */

let harness: HostHarness;
beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);
afterAll(() => harness?.close());

const log = (name: string): string => `(window.ran = window.ran || []).push(${JSON.stringify(name)});`;
const js = (body: string) => ({ body, contentType: 'text/javascript' });

function aPageWithEveryKindOfScript(): string {
  const src = (name: string): string => harness.asset(`/scripts/${name}.js`, js(log(name)));
  src('classic-a');
  src('classic-b');
  src('async');
  src('defer');
  harness.asset('/scripts/module.js', js(`import { name } from './module-dep.js'; ${log('module')} window.dep = name;`));
  harness.asset('/scripts/module-dep.js', js(`export const name = 'dep';`));
  // Relative URLs resolve against the host page, in the frame too (the frame document gives it the page's base URL).
  return `<!doctype html><html><head><meta charset="utf-8">
<script>${log('head-inline')}</script>
<script src="/scripts/classic-a.js"></script>
<script async src="/scripts/async.js"></script>
<script defer src="/scripts/defer.js"></script>
<script type="module">${log('inline-module')}</script>
<script type="module" src="/scripts/module.js"></script>
</head><body><p>Scripts</p>
<script>${log('body-inline')}</script>
<script src="/scripts/classic-b.js"></script>
<script type="application/json">{"runs": false}</script>
<script nomodule>${log('nomodule')}</script>
<template><script>${log('template')}</script></template>
</body></html>`;
}

describe.each(ISOLATIONS)('%s isolation', (isolation) => {
  it('runs classic scripts in order, defer and modules after them in order, async once, each exactly once', async () => {
    const { componentId } = await harness.aComponent(aPageWithEveryKindOfScript());
    const { context, page, consoleErrors } = await harness.open(mountPage(harness, { componentId, isolation }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      // ready resolves after the classic, defer and module scripts; the async one may come later.
      await waitInComponent(page, isolation, () => (window as unknown as { ran: string[] }).ran.includes('async'));
      const { ran, dep } = await inComponentWindow(page, isolation, () => {
        const { ran, dep } = window as unknown as { ran: string[]; dep: string };
        return { ran, dep };
      });
      expect(ran.filter((name) => name !== 'async')).toEqual(['head-inline', 'classic-a', 'body-inline', 'classic-b', 'defer', 'inline-module', 'module']);
      expect(ran.filter((name) => name === 'async')).toHaveLength(1);
      expect(ran.indexOf('async')).toBeGreaterThan(ran.indexOf('head-inline'));
      expect(dep).toBe('dep');
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
