import { buildHtmlLoader } from '../src/html-loader.js';

const loaderOf = (html: string) => buildHtmlLoader(html, 'sha384-x');

describe('buildHtmlLoader: what a browser would load, found by parsing', () => {
  it('keeps document order across head and body', () => {
    const { styles, scripts } = loaderOf(
      '<html><head><style>a{}</style><script src="1.js"></script></head><body><link rel="stylesheet" href="b.css"><script>two()</script></body></html>',
    );
    expect(styles.map((s) => (s.type === 'url' ? s.url : s.content))).toEqual(['a{}', 'b.css']);
    expect(scripts.map((s) => (s.type === 'url' ? s.url : s.content))).toEqual(['1.js', 'two()']);
  });

  it('ignores comments, <template> and <noscript> content, data blocks and alternate stylesheets', () => {
    const { styles, scripts } = loaderOf(`<!doctype html><html><head>
      <!-- <script src="commented.js"></script> -->
      <noscript><link rel="stylesheet" href="noscript.css"></noscript>
      <link rel="alternate stylesheet" href="alt.css" title="alt">
      <link rel="preload" href="font.woff2" as="font">
      <script type="application/json">{"a":1}</script>
      <script type="importmap">{"imports":{}}</script>
      <script type="text/template"><p>x</p></script>
    </head><body><template><script src="in-template.js"></script><style>t{}</style></template></body></html>`);
    expect(styles).toEqual([]);
    expect(scripts).toEqual([]);
  });

  it('reads attributes case-insensitively and keeps SRI and CORS attributes', () => {
    const { styles, scripts } = loaderOf(
      '<LINK REL="Stylesheet" HREF=" x.css " MEDIA="print" INTEGRITY="sha384-a" CROSSORIGIN><SCRIPT TYPE="MODULE" SRC="m.js" ASYNC></SCRIPT><script type="text/javascript" src="c.js" defer crossorigin="use-credentials"></script>',
    );
    expect(styles).toEqual([{ type: 'url', url: 'x.css', media: 'print', integrity: 'sha384-a', crossOrigin: '' }]);
    expect(scripts).toEqual([
      { type: 'url', url: 'm.js', module: true, async: true, defer: true, integrity: null, crossOrigin: null },
      { type: 'url', url: 'c.js', module: false, async: false, defer: true, integrity: null, crossOrigin: 'use-credentials' },
    ]);
  });

  it('keeps inline text verbatim (entities are not decoded in raw text elements), skips empty blocks', () => {
    const { styles, scripts } = loaderOf('<style>p::after{content:"&amp;"}</style><script>if (a < b && c) {}</script><script>  </script><script src=""></script>');
    expect(styles).toEqual([{ type: 'inline', content: 'p::after{content:"&amp;"}', media: null }]);
    expect(scripts).toEqual([{ type: 'inline', content: 'if (a < b && c) {}', module: false }]);
  });

  it('returns the HTML untouched, with the fixed rendering hints', () => {
    const html = '<p>Plain fragment</p>';
    expect(loaderOf(html)).toEqual({ type: 'HTMLLoader', HTML: html, shadowRootMode: 'open', autoHeight: true, integrity: 'sha384-x', styles: [], scripts: [] });
  });
});
