import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createCsrf, CSRF_FIELD, errorBox, escapeHtml, html, htmlDocument, noticeBox, readCookies } from '../src/index.js';

describe('html', () => {
  it('escapes every interpolated string and keeps nested html', () => {
    const name = `<script>alert("x")</script> & 'y'`;
    expect(html`<p>${name}</p>${html`<b>${1}</b>`}${null}${false}${['a', html`<i>b</i>`]}`.toString()).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p><b>1</b>a<i>b</i>',
    );
    expect(escapeHtml('"&')).toBe('&quot;&amp;');
  });
});

describe('page parts', () => {
  it('wraps a body in the document with an escaped title and the given stylesheet', () => {
    const page = htmlDocument({ title: 'A & B', stylesheet: '/assets/x.css', body: html`<main></main>` });
    expect(page).toContain('<title>A &amp; B</title>\n<link rel="stylesheet" href="/assets/x.css">');
    expect(page).toMatch(/^<!doctype html>[\s\S]*<body>\n<main><\/main>\n<\/body>\n<\/html>\n$/);
  });

  it('gives an error box an id only when asked, and renders nothing for no message', () => {
    expect(errorBox('Bad <input>').toString()).toBe('<p class="error" role="alert">Bad &lt;input&gt;</p>');
    expect(errorBox('Bad', 'form-error').toString()).toBe('<p class="error" id="form-error" role="alert">Bad</p>');
    expect(errorBox(null).toString()).toBe('');
    expect(noticeBox('Saved.').toString()).toBe('<p class="notice" role="status">Saved.</p>');
  });
});

describe('readCookies', () => {
  it('keeps the first of a repeated name and drops malformed values', () => {
    const cookies = readCookies({ headers: { cookie: 'a=1; b=%E0%A4%A; a=2; =x; c=hello%20world' } } as never);
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['c', 'hello world'],
    ]);
  });
});

describe('createCsrf', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const csrf = createCsrf({ key: 'k'.repeat(32), secure: false, cookieName: 'test_csrf' });
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    app.get('/form', (req, res) => {
      res.send(csrf.token(req, res));
    });
    app.post('/form', (req, res) => {
      res.status(csrf.verify(req) ? 200 : 403).end();
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (cookie: string | null, token: string | null) =>
    fetch(`${base}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: token === null ? '' : new URLSearchParams({ [CSRF_FIELD]: token }).toString(),
    });

  it('accepts the token issued with its cookie, and refuses a missing, foreign or forged one', async () => {
    const first = await fetch(`${base}/form`);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^test_csrf=[A-Za-z0-9_-]{43}$/);
    const token = await first.text();
    expect((await post(cookie, token)).status).toBe(200);
    expect((await post(cookie, null)).status).toBe(403);
    expect((await post(null, token)).status).toBe(403);
    expect((await post(`test_csrf=${'A'.repeat(43)}`, token)).status).toBe(403);
    expect((await post(cookie, `${token.slice(0, -1)}x`)).status).toBe(403);
  });
});
