import { ErrorCode } from '../src/errors/domain-error.js';
import { HTTP_STATUS } from '../src/errors/http-status.js';
import { curlUploadCommand, shellQuote } from '../src/rules/curl-command.js';
import { inspectHtmlDocument } from '../src/rules/html-document.js';
import { normalizeComponentName, normalizeEnvironmentName } from '../src/rules/names.js';
import { normalizeTags, toTagEdit } from '../src/rules/tags.js';
import { createHash } from 'node:crypto';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('tags', () => {
  it('trims, de-duplicates and keeps first-seen order', () => {
    expect(normalizeTags('add', ['  b', 'a ', 'b', 'a'])).toEqual(['b', 'a']);
  });
  it('is case-sensitive', () => {
    expect(normalizeTags('add', ['React', 'react'])).toEqual(['React', 'react']);
  });
  it.each([
    ['', 'add: tags must not be empty or only whitespace.'],
    ['   ', 'add: tags must not be empty or only whitespace.'],
    ['x'.repeat(51), `add: tag "${'x'.repeat(20)}…" is longer than 50 characters.`],
    ['a\tb', 'add: tag "a\tb" contains control characters.'],
  ])('refuses %j', (tag, message) => {
    expect(() => normalizeTags('add', [tag])).toThrow(message);
  });
  it('accepts a 50-character tag, counting characters not bytes', () => {
    expect(normalizeTags('add', ['é'.repeat(50)])).toHaveLength(1);
  });
  it('set is exclusive with add and remove', () => {
    expect(() => toTagEdit({ set: ['a'], add: ['b'] })).toThrow(
      'set: "set" replaces the whole list and cannot be combined with "add" or "remove". Send one mode per call.',
    );
    expect(() => toTagEdit({ set: [], remove: [] })).toThrow(/cannot be combined/);
  });
  it('set: [] clears', () => {
    expect(toTagEdit({ set: [] })).toEqual({ kind: 'set', tags: [] });
  });
  it('add and remove together are allowed, but not for the same tag', () => {
    expect(toTagEdit({ add: ['a'], remove: ['b'] })).toEqual({ kind: 'change', add: ['a'], remove: ['b'] });
    expect(() => toTagEdit({ add: ['a'], remove: [' a'] })).toThrow(
      'tags: "a" is in both "add" and "remove"; name each tag in one of them.',
    );
  });
  it('needs a mode', () => {
    expect(() => toTagEdit({})).toThrow('tags: pass "add", "remove" or "set".');
  });
  it('refuses more than 50 tags in set, and more than 100 named in one edit', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(() => toTagEdit({ set: many(51) })).toThrow(expect.objectContaining({ code: ErrorCode.TooManyTags }));
    expect(() => toTagEdit({ add: many(60), remove: many(41).map((t) => `r${t}`) })).toThrow(
      'tags: one edit may name at most 100 tags.',
    );
  });
});

describe('names', () => {
  it('trims component names and limits them to 100 characters', () => {
    expect(normalizeComponentName('  Header ')).toBe('Header');
    expect(() => normalizeComponentName(' ')).toThrow('name: the component name must not be empty.');
    expect(() => normalizeComponentName('x'.repeat(101))).toThrow('name: the component name must be at most 100 characters.');
    expect(() => normalizeComponentName('a\nb')).toThrow('name: the component name must not contain control characters.');
  });
  it('environment names are lower-case slugs', () => {
    expect(normalizeEnvironmentName(' Prod ')).toBe('prod');
    expect(normalizeEnvironmentName('eu-canary-2')).toBe('eu-canary-2');
    for (const bad of ['', '1prod', 'pr od', 'prod/1', 'x'.repeat(33)]) {
      expect(() => normalizeEnvironmentName(bad)).toThrow(/is not an environment name/);
    }
  });
});

describe('html documents', () => {
  it('hashes the exact bytes: sha256 hex and SRI sha384', () => {
    const html = '<div>hi</div>';
    const document = inspectHtmlDocument(bytes(html));
    expect(document.sha256).toBe(createHash('sha256').update(html).digest('hex'));
    expect(document.integrity).toBe(`sha384-${createHash('sha384').update(html).digest('base64')}`);
    expect(document.size).toBe(13);
  });
  it.each([
    ['empty', bytes('  \n'), 'the file is empty.'],
    ['plain text', bytes('hello world'), 'it contains no HTML element.'],
    ['JSON', bytes('{"a": 1}'), 'it contains no HTML element.'],
    ['invalid UTF-8', new Uint8Array([0x3c, 0x62, 0x3e, 0xff, 0xfe]), 'it is not valid UTF-8 text.'],
    ['NUL bytes', bytes('<b>x</b>\u0000'), 'it contains NUL bytes (a binary file?).'],
  ])('refuses %s', (_name, input, reason) => {
    expect(() => inspectHtmlDocument(input)).toThrow(
      `The uploaded file is not an HTML document: ${reason} Upload the built ./dist/index.html and call confirm_upload again.`,
    );
  });
  it('accepts a fragment and a template-only document', () => {
    expect(() => inspectHtmlDocument(bytes('<template><p>x</p></template>'))).not.toThrow();
    expect(() => inspectHtmlDocument(bytes('<my-widget></my-widget>'))).not.toThrow();
  });
});

describe('curl command', () => {
  it('quotes for POSIX shells', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(curlUploadCommand('https://s3.test/k?a=1&b=2')).toBe(
      "curl --fail -sS -X PUT -H 'Content-Type: text/html' --data-binary '@./dist/index.html' 'https://s3.test/k?a=1&b=2'",
    );
  });
});

describe('HTTP_STATUS', () => {
  it('gives every error code a client-error status, except an unavailable dependency: 503', () => {
    const unavailable: string[] = [ErrorCode.DatabaseUnavailable, ErrorCode.StoreUnavailable];
    for (const code of Object.values(ErrorCode)) {
      if (unavailable.includes(code)) continue;
      expect(HTTP_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS[code]).toBeLessThan(500);
    }
    expect(HTTP_STATUS[ErrorCode.DatabaseUnavailable]).toBe(503);
    expect(HTTP_STATUS[ErrorCode.StoreUnavailable]).toBe(503);
  });
});
