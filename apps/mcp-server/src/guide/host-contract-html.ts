import { escapeHtml } from './escape-html.js';

/**
 * A minimal complete component that follows the host contract in both isolations: it keeps what
 * its top level got, finds its elements from `cpRoot`, styles its own wrapper, and never needs data
 * to render. Exported so tests can render exactly what the guide shows.
 */
export const CONTRACT_EXAMPLE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<style>
  .price-tag { font: 16px/1.4 system-ui, sans-serif; padding: 12px; border: 1px solid #ccc; border-radius: 8px; }
</style>
</head>
<body>
<div class="price-tag">
  <p>Price: <strong id="amount">…</strong></p>
  <button type="button" id="buy">Buy</button>
</div>
<script>
{ // A block: in a shadow root, every instance's scripts share the host page's global scope.
  // Keep what the top level got: in a shadow root these globals belong to the host page.
  const send = window.cpSend, root = window.cpRoot;
  const amount = root.querySelector('#amount');
  let sku = null;
  window.cpReceive = (data) => {
    sku = data?.sku ?? null;
    amount.textContent = String(data?.price ?? '…');
  };
  root.querySelector('#buy').addEventListener('click', () => send('buy', { sku }));
}
</script>
</body>
</html>`;

/** "Talking to the host page": the component side of the host SDK's contract (packages/host). */
export function hostContractSection(deliveryUrl: string): string {
  const delivery = escapeHtml(deliveryUrl);
  return `<h2 id="host">2. Talking to the host page</h2>
<p>Hosts render your component with the host SDK (section 6), which gives it three globals. They work the same in both
isolations, so build against them and not against the page around you.</p>
<table>
  <tr><th>Global</th><th>What it does</th></tr>
  <tr><td><code>window.cpReceive = (data) =&gt; { … }</code></td><td>You define it, in any of your scripts. The SDK calls it with the
      host's latest <code>data</code> once it is defined (in a microtask, so the rest of your script runs first), and again on every
      update from the host. When the host gave no data, it is not called until the host sends some.</td></tr>
  <tr><td><code>window.cpSend(action, payload)</code></td><td>Defined by the SDK before your first script runs. <code>action</code> is a
      non-empty string; the host receives it as a <code>cp-action</code> event on its element and through its <code>onAction</code>.
      Send plain data as <code>payload</code>.</td></tr>
  <tr><td><code>window.cpRoot</code></td><td>Your root: <code>document</code> in a frame, your shadow root in a shadow root. Find your
      elements with <code>cpRoot.querySelector('#x')</code>, never <code>document.querySelector</code>.</td></tr>
</table>
<ul>
  <li><strong>Data is structured-cloned</strong> in both isolations (what <code>postMessage</code> carries): plain objects, arrays,
      strings, numbers, dates; no functions or DOM nodes. You never hold the host's objects.</li>
  <li><strong>Keep the references your top level got</strong>: <code>const send = window.cpSend, root = window.cpRoot;</code>, and
      assign <code>window.cpReceive</code> while your script runs. In a shadow root the globals belong to the host page, and the SDK
      points them at your instance only while your script runs; later callbacks (clicks, timers, after <code>await</code>) must use
      what you kept.</li>
  <li><strong>Keep your names in a block</strong> (<code>{ … }</code> around a classic script's code, as below): in a shadow root,
      two instances of your component run the same scripts in one window, and top-level <code>const</code>s would collide.</li>
  <li><strong>Size</strong>: actions starting with <code>cp:</code> are the SDK's own and never reach the host.
      <code>cpSend('cp:size', { height: 320 })</code> asks for a height in CSS pixels. It applies while <code>autoHeight</code> is off
      (the host's choice; by default the loader's <code>autoHeight</code>); with it on, the SDK follows your measured height: your
      content's, including changes after load (late images and fonts, new data), smaller ones too. The host may cap it
      (<code>maxHeight</code>); past the cap your document scrolls.</li>
  <li><strong>Do not size yourself by the viewport to fill it</strong>: in a frame your viewport is the height the SDK gives you. With
      <code>min-height: 100vh</code> or <code>min-height: 100%</code> you get your content's height as it is in a viewport too small to
      fill (the frame does not grow to follow the viewport it makes).</li>
  <li><strong>Modals</strong>: a <code>position: fixed</code> modal is clipped to your frame. Ask for the host's whole viewport with
      <code>cpSend('cp:overlay', { open: true })</code> when you open it, from a click or key press (a request without a recent one is
      ignored), and <code>cpSend('cp:overlay', { open: false })</code> when it closes. While open your frame covers the host page's
      viewport and is transparent where you draw nothing: draw a backdrop, and let a tall modal scroll itself
      (<code>overflow: auto</code>). In a shadow root the request does nothing: your fixed elements already cover the page.</li>
</ul>
<p>The host chooses the isolation:</p>
<ul>
  <li><strong>Frame</strong> (the default): a sandboxed <code>&lt;iframe&gt;</code> with <code>allow-scripts</code> (plus what the host
      allows). The document is yours, but it has an opaque origin: no access to the host page, its cookies or its storage, and no
      cookies or storage of your own to rely on.</li>
  <li><strong>Shadow root</strong>: your markup and styles (inline and linked) go into a shadow root, so styles do not leak either way.
      Your scripts share the host page's JavaScript realm and run under its Content-Security-Policy: classic scripts in document order,
      <code>async</code>, <code>defer</code> and <code>type="module"</code> as in a page, each exactly once. There is no
      <code>&lt;html&gt;</code> or <code>&lt;body&gt;</code> of yours, so <code>body</code> and <code>html</code> selectors match nothing:
      style your own wrapper element, or <code>:host</code>.</li>
</ul>
<p><strong>Linked files</strong>: a <code>&lt;script src&gt;</code> or stylesheet with an <code>integrity</code> attribute is fetched and
checked before anything is shown, so its server must allow CORS (<code>Access-Control-Allow-Origin</code>). If the HTML or such a file
does not match, nothing renders and the host gets a <code>cp-error</code>.</p>
<p>A minimal complete <code>dist/index.html</code>:</p>
<pre>${escapeHtml(CONTRACT_EXAMPLE)}</pre>
<p>The host sends <code>{ "price": "12.90 EUR", "sku": "A-1" }</code> as data; a click reaches it as the action <code>buy</code>. To try yours:
<code>${delivery}/examples/host?component=&lt;componentId&gt;&amp;env=prod</code> (or <code>&amp;preview=true</code>) renders it through
the SDK, with a data box and an action log.</p>
`;
}
