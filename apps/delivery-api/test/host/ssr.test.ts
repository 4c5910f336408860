import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/*
 * Importing the built SDK, its React binding and its server-side include where
 * there is no browser (a server rendering the page, Node): nothing throws and
 * no browser global is touched. Run in a plain
 * Node process, where touching `window`, `document` or `HTMLElement` throws.
 */

const require = createRequire(import.meta.url);
const built = (file: string) => pathToFileURL(require.resolve('@component-platform/host/dist/cp-host.js').replace(/cp-host\.js$/, file)).href;

// customElements stays absent, as in Node: the SDK checks it with typeof before defining the element.
const TRAPS = `for (const name of ['window', 'document', 'HTMLElement', 'self', 'location']) {
  Object.defineProperty(globalThis, name, { configurable: true, get() { throw new Error(name + ' was touched on import'); } });
}`;

/** Runs `code` (an ES module body) in a plain Node process with the traps set; returns what it printed. */
const runInNode = (code: string): string => execFileSync(process.execPath, ['--input-type=module', '-e', `${TRAPS}\n${code}`], { encoding: 'utf8' }).trim();

const importInNode = (url: string): string => runInNode(`const m = await import(${JSON.stringify(url)});\nconsole.log(Object.keys(m).sort().join(','));`);

it('imports the SDK file on a server without touching browser globals', () => {
  expect(importInNode(built('cp-host.js'))).toBe('CpError,consent,droppedEvents,mount');
});

it('imports the React binding on a server', () => {
  expect(importInNode(built('react.js'))).toBe('CpComponent');
});

it('imports the server-side include on a server, with the SDK file\'s CpError (instanceof holds across both)', () => {
  expect(importInNode(built('server.js'))).toBe('CpError,renderComponent');
  const thrown = runInNode(`const server = await import(${JSON.stringify(built('server.js'))});
const sdk = await import(${JSON.stringify(built('cp-host.js'))});
const error = await server.renderComponent({ componentId: 'x', env: 'prod' }).catch((error) => error);
console.log(server.CpError === sdk.CpError, error instanceof sdk.CpError, error.problem.code);`);
  expect(thrown).toBe('true true INVALID_OPTIONS');
});
