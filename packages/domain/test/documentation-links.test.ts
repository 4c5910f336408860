import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brokenLinks, type MarkdownDocument } from './support/link-check.js';
import { slugOf } from './support/markdown.js';

// The repository documents itself: README.md, SECURITY.md, docs/ and every package's README.
// Their relative links must resolve, and none may point outside the repository.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const NOT_DOCUMENTATION = new Set(['node_modules', '.git', '.data', '.turbo', 'dist', 'coverage', 'test-artifacts', 'generated']);

function markdownFiles(folder = ''): MarkdownDocument[] {
  return readdirSync(root + folder, { withFileTypes: true }).flatMap((entry) => {
    const path = folder + entry.name;
    if (entry.isDirectory()) return NOT_DOCUMENTATION.has(entry.name) ? [] : markdownFiles(`${path}/`);
    return entry.name.endsWith('.md') ? [{ path, text: readFileSync(root + path, 'utf8') }] : [];
  });
}

const documents = markdownFiles();

describe('the repository documentation', () => {
  it('is found: the front page, the security model and docs/', () => {
    const paths = documents.map((document) => document.path);
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'SECURITY.md', 'docs/README.md', 'apps/mcp-server/README.md']));
  });

  it('links only to files and headings that exist in the repository', () => {
    expect(brokenLinks(documents, (path) => existsSync(root + path))).toEqual([]);
  });

  it('never points to the briefing outside the repository (../shared)', () => {
    expect(documents.filter((document) => document.text.includes('../shared')).map((document) => document.path)).toEqual([]);
  });

  it('keeps the front page short', () => {
    const readme = documents.find((document) => document.path === 'README.md');
    expect(readme?.text.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });
});

// The check itself must be able to fail: each kind of broken link it exists to catch.
describe('brokenLinks', () => {
  const files = new Set(['README.md', 'docs/guide.md', 'docs/decisions/0001-one.md', 'SECURITY.md']);
  const exists = (path: string) => files.has(path) || path === 'docs';
  const check = (text: string, more: MarkdownDocument[] = []) =>
    brokenLinks(
      [
        { path: 'docs/guide.md', text },
        { path: 'README.md', text: '# Component platform\n\n## Running the stack\n\n## `mount()`\n\n## Running the stack\n' },
        ...more,
      ],
      exists,
    );

  it('accepts files, folders, headings (GitHub slugs, repeats numbered) and external links', () => {
    const text = [
      '[up](../README.md#running-the-stack) [again](../README.md#running-the-stack-1) [sdk](../README.md#mount)',
      '[record](decisions/0001-one.md) [folder](../docs) [self](#a-heading) [web](https://example.com/x#y) [mail](mailto:a@b.c)',
      '# A heading',
    ].join('\n');
    expect(check(text)).toEqual([]);
  });

  it('reports a missing file, a missing heading and a path out of the repository', () => {
    const text = '[gone](missing.md) [anchor](../README.md#no-such-heading) [out](../../outside/notes.md) [here](#nowhere)';
    expect(check(text)).toEqual([
      'docs/guide.md: (missing.md) names docs/missing.md, which does not exist',
      'docs/guide.md: (../README.md#no-such-heading): README.md has no heading with the anchor #no-such-heading',
      'docs/guide.md: (../../outside/notes.md) leaves the repository',
      'docs/guide.md: (#nowhere): docs/guide.md has no heading with the anchor #nowhere',
    ]);
  });

  it('ignores links inside code, and finds reference definitions', () => {
    const text = '`[a](missing-1.md)`\n\n```md\n[b](missing-2.md)\n```\n\n[c]: missing-3.md\n';
    expect(check(text)).toEqual(['docs/guide.md: (missing-3.md) names docs/missing-3.md, which does not exist']);
  });

  it('slugs headings as GitHub does', () => {
    expect(slugOf('The host SDK: `/host/v1.js`')).toBe('the-host-sdk-hostv1js');
    expect(slugOf('`<cp-component>`: attributes, events, slots')).toBe('cp-component-attributes-events-slots');
    expect(slugOf('Clients (Dynamic Client Registration, RFC 7591)')).toBe('clients-dynamic-client-registration-rfc-7591');
    expect(slugOf('What was verified, and what was not')).toBe('what-was-verified-and-what-was-not');
  });
});
