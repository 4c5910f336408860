import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, type Browser, type BrowserContext, type Page } from '@cp/browser-testing';
import { defaultDomainConfig } from '@cp/domain';
import { startDevServer, type DevServer } from '../src/dev/index.js';

/*
 * `cpc dev` in Chromium: the dev page renders the watched file through the real host SDK, swaps
 * each good save in place (no reload, the host's data kept), and keeps the last good version on
 * show while a save breaks the component contract, saying why on the page and in the terminal.
 */

const version = (label: string) => `<!doctype html><html><body><p id="v">${label}</p><p id="d"></p>
<script>{ const root = window.cpRoot; window.cpReceive = (data) => { root.getElementById('d').textContent = data.greeting ?? ''; }; }</script></body></html>`;

let browser: Browser;
let context: BrowserContext;
let dir: string;
let file: string;
let server: DevServer;
let terminal: string[];
/** The page's console errors: a refusal of its Content-Security-Policy would show here. */
let consoleErrors: string[];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Starts the dev server on a file holding `html`. */
async function start(html: string): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'cpc-dev-'));
  file = join(dir, 'index.html');
  await writeFile(file, html);
  terminal = [];
  server = await startDevServer({ file, port: 0, log: { info: (line) => terminal.push(line), error: (line) => terminal.push(line) } });
  context = await browser.newContext();
  consoleErrors = [];
  context.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
}

afterEach(async () => {
  await context?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const component = (page: Page) => page.frameLocator('cp-component iframe');

/** Waits (bounded by the test's timeout) until the element holds one frame whose `selector` reads `text`. */
async function waitForShown(page: Page, selector: string, text: string): Promise<void> {
  for (;;) {
    const frames = await page.locator('cp-component iframe').count();
    const shown = frames === 1 ? await component(page).locator(selector).textContent({ timeout: 1000 }).catch(() => null) : null;
    if (shown === text) return;
    await page.waitForTimeout(25);
  }
}

async function openWithData(greeting: string): Promise<Page> {
  await start(version('one'));
  const page = await context.newPage();
  await page.goto(server.url);
  await page.locator('#data').fill(JSON.stringify({ greeting }));
  await page.getByRole('button', { name: 'Send' }).click();
  await waitForShown(page, '#v', 'one');
  await waitForShown(page, '#d', greeting);
  return page;
}

it('shows the file with the data box\'s data, and swaps each save in place without a reload, keeping the data', async () => {
  const page = await openWithData('hello from the data box');
  await page.evaluate(() => ((globalThis as unknown as { __marker: number }).__marker = 1));

  await writeFile(file, version('two'));
  await waitForShown(page, '#v', 'two');
  expect(await component(page).locator('#d').textContent()).toBe('hello from the data box');

  // An editor that saves by writing a new file and renaming it over the old one.
  await writeFile(join(dir, '.index.html.tmp'), version('three'));
  await rename(join(dir, '.index.html.tmp'), file);
  await waitForShown(page, '#v', 'three');
  expect(await component(page).locator('#d').textContent()).toBe('hello from the data box');

  expect(await page.evaluate(() => (globalThis as unknown as { __marker?: number }).__marker)).toBe(1);
  expect(await page.locator('#status').textContent()).toBe('Showing v3.');
  expect(terminal.some((line) => line.includes('serving v3'))).toBe(true);
  expect(consoleErrors).toEqual([]);
});

const broken = [
  {
    what: 'no doctype',
    html: '<html><body><p id="v">quirks</p></body></html>',
    says: 'does not start with <!doctype html>',
  },
  {
    what: 'a script that throws at load',
    html: '<!doctype html><html><body><p id="v">throws</p><script>throw new TypeError("boom at load")</script></body></html>',
    says: 'A script throws while the component loads: TypeError: boom at load',
  },
  {
    what: 'a size over the upload limit',
    html: `<!doctype html><html><body><p id="v">big</p><!--${'x'.repeat(defaultDomainConfig.maxUploadBytes)}--></body></html>`,
    says: `uploads are limited to ${defaultDomainConfig.maxUploadBytes} bytes`,
  },
  {
    what: 'not UTF-8',
    html: Buffer.from([0x3c, 0x70, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x70, 0x3e]),
    says: 'it is not valid UTF-8 text',
  },
];

it.each(broken)('keeps the last good version on show and says why when a save has $what', async ({ html, says }) => {
  const page = await openWithData('kept');
  await page.evaluate(() => ((globalThis as unknown as { __marker: number }).__marker = 1));

  await writeFile(file, html);
  const problems = page.locator('#problems');
  await problems.getByText(says).waitFor();
  expect(await problems.textContent()).toContain('still showing v1, the last good version');
  expect(await component(page).locator('#v').textContent()).toBe('one');
  expect(await component(page).locator('#d').textContent()).toBe('kept');
  expect(terminal.join('\n')).toContain(says);

  // Fixed: the next good save replaces it, and the problems go.
  await writeFile(file, version('fixed'));
  await waitForShown(page, '#v', 'fixed');
  await problems.waitFor({ state: 'hidden' });
  expect(await page.evaluate(() => (globalThis as unknown as { __marker?: number }).__marker)).toBe(1);
});

it('reports a file that is broken from the start, and shows it once fixed', async () => {
  await start('<!doctype html><script>throw new Error("broken from the start")</script>');
  const page = await context.newPage();
  await page.goto(server.url);
  await page.locator('#problems').getByText('Error: broken from the start').waitFor();
  expect(await page.locator('#problems').textContent()).toContain('nothing to show until it is fixed');
  expect(await page.locator('cp-component').count()).toBe(0);

  await writeFile(file, version('one'));
  await waitForShown(page, '#v', 'one');
});

it('works at localhost too', async () => {
  await start(version('one'));
  const page = await context.newPage();
  await page.goto(server.url.replace('127.0.0.1', 'localhost'));
  await waitForShown(page, '#v', 'one');
});

it('reloads a page left open from an earlier run once cpc dev runs again on its port', async () => {
  const page = await openWithData('before the restart');
  await page.evaluate(() => ((globalThis as unknown as { __marker: number }).__marker = 1));
  const { port } = new URL(server.url);
  await server.close();
  await writeFile(file, version('after the restart'));
  server = await startDevServer({ file, port: Number(port), log: { info: (line) => terminal.push(line), error: (line) => terminal.push(line) } });

  await waitForShown(page, '#v', 'after the restart');
  expect(await page.evaluate(() => (globalThis as unknown as { __marker?: number }).__marker)).toBeUndefined();
});
