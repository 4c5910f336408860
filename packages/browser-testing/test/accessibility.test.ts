import { accessibilityViolations, launchChromium, type Browser } from '../src/index.js';

/* The check the browser tests run on each page: it must find what it is there to find, under a strict CSP too. */
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('a button whose name leaves out its visible text is reported; one that contains it is not', async () => {
  const page = await (await browser.newContext()).newPage();
  await page.route('http://page.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: { 'Content-Security-Policy': "default-src 'none'" },
      body: '<!doctype html><html lang="en"><title>t</title><main><h1>Environments</h1><button aria-label="Open prod to every member">Open to every member</button><button aria-label="Protect staging">Protect</button></main></html>',
    }),
  );
  await page.goto('http://page.test/');
  expect(await accessibilityViolations(page)).toEqual([
    { rule: 'label-content-name-mismatch', impact: 'serious', help: expect.any(String), targets: [`button[aria-label="Open prod to every member"]`] },
  ]);
  await page.setContent('<!doctype html><html lang="en"><title>t</title><main><h1>Environments</h1><button aria-label="Open to every member (prod)">Open to every member</button></main></html>');
  expect(await accessibilityViolations(page)).toEqual([]);
});
