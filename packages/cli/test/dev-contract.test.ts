import { checkComponentFile } from '../src/dev/contract-checks.js';
import { ComponentVersions } from '../src/dev/component-versions.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const GOOD = '<!doctype html><p>one</p>';

describe('checkComponentFile', () => {
  it.each([
    ['a doctype first', GOOD],
    ['comments and whitespace before the doctype', '\n<!-- built -->\n  <!DOCTYPE HTML>\n<p>one</p>'],
    ['a byte order mark', '\uFEFF<!doctype html><p>one</p>'],
  ])('accepts %s', (_what, html) => {
    expect(checkComponentFile(bytes(html)).ok).toBe(true);
  });

  it.each([
    ['no doctype', '<p>one</p>', 'no-doctype', 'does not start with <!doctype html>'],
    ['a legacy doctype', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"><p>one</p>', 'no-doctype', 'quirks mode'],
    ['plain text', 'just text', 'not-html', 'it contains no HTML element.'],
    ['NUL bytes', '<!doctype html><p>\u0000</p>', 'not-html', 'NUL bytes'],
    ['an empty file', '  ', 'not-html', 'the file is empty.'],
  ])('refuses %s', (_what, html, kind, says) => {
    const check = checkComponentFile(bytes(html));
    expect(check).toMatchObject({ ok: false, problems: [{ kind }] });
    expect(!check.ok && check.problems[0]!.message).toContain(says);
    expect(!check.ok && check.problems[0]!.message).not.toContain('confirm_upload');
  });

  it('holds the file to the upload limit, the limit itself included', () => {
    const html = bytes(GOOD);
    expect(checkComponentFile(html, html.byteLength).ok).toBe(true);
    expect(checkComponentFile(html, html.byteLength - 1)).toMatchObject({
      ok: false,
      problems: [{ kind: 'too-large', message: expect.stringContaining(`limited to ${html.byteLength - 1} bytes`) }],
    });
  });
});

describe('ComponentVersions', () => {
  const good = (html: string) => checkComponentFile(bytes(html));

  it('serves a candidate once the page ran it, and keeps it while later reads are broken', () => {
    const versions = new ComponentVersions();
    expect(versions.read(good(GOOD))).toBe('candidate');
    expect(versions.current()).toBeNull();
    expect(versions.verdict(1, [])).toBe('promoted');
    expect(versions.current()).toMatchObject({ name: 'v1', revision: 1 });
    expect(versions.read(good('<p>no doctype</p>'))).toBe('broken');
    expect(versions.status()).toMatchObject({ revision: 2, good: { name: 'v1' }, candidate: null, problems: [{ kind: 'no-doctype' }] });
    expect(versions.read(good('<!doctype html><script>throw 1</script>'))).toBe('candidate');
    expect(versions.verdict(3, [{ kind: 'throws-at-load', message: 'boom' }])).toBe('broken');
    expect(versions.status()).toMatchObject({ good: { name: 'v1' }, problems: [{ message: 'boom' }] });
  });

  it('makes nothing new of the bytes it already serves', () => {
    const versions = new ComponentVersions();
    versions.read(good(GOOD));
    versions.verdict(1, []);
    const { variantId } = versions.current()!;
    expect(versions.read(good(GOOD))).toBe('unchanged');
    expect(versions.current()!.variantId).toBe(variantId);
    expect(variantId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('ignores a verdict on a read that a later one replaced', () => {
    const versions = new ComponentVersions();
    versions.read(good(GOOD));
    versions.read(good('<!doctype html><p>two</p>'));
    expect(versions.verdict(1, [])).toBe('stale');
    expect(versions.current()).toBeNull();
    expect(versions.verdict(2, [])).toBe('promoted');
    expect(versions.verdict(2, [])).toBe('stale');
  });
});
