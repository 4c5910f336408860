/// <reference lib="dom" />
import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { component, hostPage, ISOLATIONS, mountPage, outcomeOf, settled } from './support/mount-page.js';

/*
 * The component contract, identical in both isolations: data in at mount
 * (cpReceive), actions out with their payload (cpSend -> onAction), update(data)
 * in; `cp:` actions stay with the SDK; data and payloads are structured-cloned.
 */

let harness: HostHarness;
beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);
afterAll(() => harness?.close());

// An IIFE: in shadow isolation classic scripts share the page's global scope.
const CONTRACT_COMPONENT = `<!doctype html><html><head><meta charset="utf-8"></head><body>
<p id="out">nothing yet</p><button id="send">send</button>
<script>(() => {
  const send = window.cpSend, root = window.cpRoot;
  window.cpReceive = (data) => {
    root.getElementById('out').textContent = JSON.stringify(data);
    data.mutated = true;
  };
  root.getElementById('send').addEventListener('click', () => send('saved', { text: root.getElementById('out').textContent, at: new Date(0) }));
  send('cp:size', { height: 10 });
  send('cp:unknown', 1);
})();</script></body></html>`;

type Recorded = { actions: { action: string; payload: unknown }[]; hostData: { mutated?: boolean } };
const recorded = (page: Page): Promise<Recorded> =>
  page.evaluate(() => {
    const { actions, hostData } = window as unknown as Recorded;
    return { actions: actions.map(({ action, payload }) => ({ action, payload: payload instanceof Object && 'at' in payload ? { ...payload, at: (payload.at as Date).toISOString() } : payload })), hostData };
  });

describe.each(ISOLATIONS)('%s isolation', (isolation) => {
  it('passes data in at mount, an action out with its payload, and update(data) in', async () => {
    const { componentId } = await harness.aComponent(CONTRACT_COMPONENT);
    const url = mountPage(harness, {
      componentId,
      isolation,
      before: `<script>window.hostData = { name: 'Ada' };</script>`,
      options: 'data: window.hostData',
    });
    const { context, page, consoleErrors } = await harness.open(url);
    try {
      expect(await outcomeOf(page)).toBe('ready');
      const out = component(page, isolation).locator('#out');
      expect(await settled(() => out.textContent(), '{"name":"Ada"}')).toBe('{"name":"Ada"}');

      await component(page, isolation).locator('#send').click();
      expect(await settled(async () => (await recorded(page)).actions.length, 1)).toBe(1);
      const { actions, hostData } = await recorded(page);
      // A Date crosses as a Date (structured clone); cp: actions never reach the host.
      expect(actions).toEqual([{ action: 'saved', payload: { text: '{"name":"Ada"}', at: new Date(0).toISOString() } }]);
      // The component changed its copy, not the host's object.
      expect(hostData.mutated).toBeUndefined();

      await page.evaluate(() => (window as unknown as { handle: { update(data: unknown): void } }).handle.update({ name: 'Bob', tags: ['x'] }));
      expect(await settled(() => out.textContent(), '{"name":"Bob","tags":["x"]}')).toBe('{"name":"Bob","tags":["x"]}');
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('calls nothing until update when the host gave no data, and rejects data that cannot be cloned', async () => {
    const { componentId } = await harness.aComponent(CONTRACT_COMPONENT);
    const { context, page } = await harness.open(mountPage(harness, { componentId, isolation }));
    const refused = await harness.open(mountPage(harness, { componentId, isolation, options: 'data: { callback() {} }' }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      const out = component(page, isolation).locator('#out');
      expect(await out.textContent()).toBe('nothing yet');
      await page.evaluate(() => (window as unknown as { handle: { update(data: unknown): void } }).handle.update(7));
      expect(await settled(() => out.textContent(), '7')).toBe('7');

      expect(await outcomeOf(refused.page)).toEqual({ code: 'INVALID_OPTIONS', detail: expect.stringMatching(/structured-cloned/) });
      expect(await refused.page.evaluate(() => document.getElementById('slot')!.childNodes.length)).toBe(0);
    } finally {
      await context.close();
      await refused.context.close();
    }
  });
});

it('iframe: takes the port only from its own frame, so a look-alike frame on the page cannot take part', async () => {
  const { componentId } = await harness.aComponent(CONTRACT_COMPONENT);
  // Another sandboxed frame (also origin 'null') keeps sending the SDK's hello with its own port.
  const impostor = `<iframe sandbox="allow-scripts" srcdoc="<script>setInterval(() => { const c = new MessageChannel(); c.port1.onmessage = (e) => parent.postMessage('impostor got ' + JSON.stringify(e.data), '*'); parent.postMessage('cp:hello', '*', [c.port2]); parent.postMessage({ a: 'saved', p: 'forged' }, '*'); }, 5)</script>"></iframe>`;
  const { context, page, consoleErrors } = await harness.open(
    mountPage(harness, { componentId, isolation: 'iframe', before: `${impostor}<script>window.hostData = { secret: 1 };</script>`, options: 'data: window.hostData' }),
  );
  try {
    await page.evaluate(() => {
      const seen: unknown[] = [];
      (window as unknown as { seen: unknown[] }).seen = seen;
      addEventListener('message', (event) => typeof event.data === 'string' && event.data.startsWith('impostor') && seen.push(event.data));
    });
    expect(await outcomeOf(page)).toBe('ready');
    await component(page, 'iframe').locator('#send').click();
    expect(await settled(async () => (await recorded(page)).actions.length, 1)).toBe(1);
    expect((await recorded(page)).actions[0]!.payload).toMatchObject({ text: '{"secret":1}' });
    expect(await page.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('shadow: two instances of one component on a page keep their contract bindings apart', async () => {
  const mark = (name: string): string =>
    harness.asset(`/two/${name}.js`, { body: `(() => { const root = window.cpRoot; root.querySelector('.marks').textContent += '${name} '; })();`, contentType: 'text/javascript' });
  const { componentId } = await harness.aComponent(`<p class="out"></p><p class="marks"></p><button class="send">send</button>
<script>(() => {
  const send = window.cpSend, root = window.cpRoot;
  window.cpReceive = (data) => { root.querySelector('.out').textContent = data.who; };
  root.querySelector('.send').addEventListener('click', () => send('hello', root.querySelector('.out').textContent));
})();</script>
<script src="${mark('src')}"></script>
<script async src="${mark('async')}"></script>
<script type="module">const root = window.cpRoot; root.querySelector('.marks').textContent += 'module ';</script>`);
  const page$ = hostPage(harness, `<div id="a"></div><div id="b"></div>
<script type="module">
import { mount } from '${harness.delivery.url}/host/v1.js';
window.actions = [];
const handles = ['A', 'B'].map((who) => mount(document.getElementById(who.toLowerCase()), {
  componentId: '${componentId}', preview: true, isolation: 'shadow', data: { who },
  onAction: (action, payload) => window.actions.push([who, action, payload]),
}));
window.outcome = Promise.all(handles.map((handle) => handle.ready)).then(() => 'ready', (error) => ({ code: error.problem && error.problem.code }));
</script>`);
  const { context, page, consoleErrors } = await harness.open(page$);
  try {
    expect(await outcomeOf(page)).toBe('ready');
    for (const who of ['A', 'B']) {
      const instance = page.locator(`#${who.toLowerCase()}`);
      expect(await settled(() => instance.locator('.out').textContent(), who)).toBe(who);
      const marks = async (): Promise<string[]> => ((await instance.locator('.marks').textContent()) ?? '').trim().split(' ').sort();
      expect(await settled(marks, ['async', 'module', 'src'])).toEqual(['async', 'module', 'src']);
    }
    await page.locator('#b .send').click();
    await page.locator('#a .send').click();
    const actions = (): Promise<unknown> => page.evaluate(() => (window as unknown as { actions: unknown[] }).actions);
    expect(await settled(actions, [['B', 'hello', 'B'], ['A', 'hello', 'A']])).toEqual([['B', 'hello', 'B'], ['A', 'hello', 'A']]);
    expect(consoleErrors).toEqual([]);
  } finally {
    await context.close();
  }
});
