import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/*
 * Importing the built SDK where there is no browser (a server rendering the
 * page, Node): nothing throws and no browser global is touched. Run in a plain
 * Node process, where touching `window`, `document` or `HTMLElement` throws.
 */

const require = createRequire(import.meta.url);
const built = (file: string) => pathToFileURL(require.resolve('@component-platform/host/dist/cp-host.js').replace(/cp-host\.js$/, file)).href;

// customElements stays absent, as in Node: the SDK checks it with typeof before defining the element.
const TRAPS = `for (const name of ['window', 'document', 'HTMLElement', 'self', 'location']) {
  Object.defineProperty(globalThis, name, { configurable: true, get() { throw new Error(name + ' was touched on import'); } });
}`;

function importInNode(url: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', `${TRAPS}\nconst m = await import(${JSON.stringify(url)});\nconsole.log(Object.keys(m).sort().join(','));`], {
    encoding: 'utf8',
  }).trim();
}

it('imports the SDK file on a server without touching browser globals', () => {
  expect(importInNode(built('cp-host.js'))).toBe('CpError,mount');
});

it('imports the React binding on a server', () => {
  expect(importInNode(built('react.js'))).toBe('CpComponent');
});
