const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 1.5rem;color:#1a1a1a}
.stage{border:1px dashed #99a;border-radius:.5rem;padding:1rem;margin:1rem 0;min-height:4rem}
.tools{display:grid;grid-template-columns:1fr 1fr;gap:1.5rem}
textarea{width:100%;min-height:8rem;font:14px ui-monospace,monospace;box-sizing:border-box}
#log{font:13px ui-monospace,monospace;max-height:16rem;overflow:auto;padding-left:1.5rem}
#problems{color:#a40000;background:#fff4f4;border:1px solid #e0b4b4;border-radius:.5rem;padding:.5rem 1rem}
#problems p{font-weight:600;margin:.25rem 0}
#probe{visibility:hidden;max-height:0;overflow:hidden}
#probe iframe{display:block;border:0;width:100%;height:0}
.error{color:#a40000;font-weight:600}
code{background:#f0f0f0;padding:0 .25rem}
`;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON inside a `<script type="application/json">` data block: nothing in it can close the element. */
const dataBlock = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page's policy: its own script, the SDK and the frame document, all from this server. */
export const DEV_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  // The element's shadow root has one small <style>.
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The dev page: the status and the problems of the watched file, the component (added by the
 * script once a version is good), a data box and an event log, like the delivery API's demo page.
 */
export function renderDevPage(options: { fileName: string; componentId: string; framePath: string; sdkPath: string }): string {
  const config = dataBlock({ componentId: options.componentId, framePath: options.framePath });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cpc dev · ${escapeHtml(options.fileName)}</title>
<style>${STYLE}</style>
<script type="application/json" id="cp-dev-config">${config}</script>
<script type="module" src="/dev/page.js"></script>
<script type="module" src="${options.sdkPath}"></script>
</head>
<body>
<h1>cpc dev <code>${escapeHtml(options.fileName)}</code></h1>
<p>The file rendered through the host SDK (<code>&lt;cp-component live&gt;</code>), as a host page shows it. Save the file: the component is swapped in place, with the data below.</p>
<p id="status" role="status">Checking the file…</p>
<div id="problems" role="alert" hidden></div>
<div class="stage" id="stage"></div>
<div class="tools">
<section>
<h2>Data</h2>
<form id="data-form">
<label for="data">JSON sent to the component (<code>element.data</code>; it receives it in <code>window.cpReceive</code>)</label>
<textarea id="data" spellcheck="false">{}</textarea>
<button type="submit">Send</button> <output id="data-status" role="status"></output>
</form>
</section>
<section>
<h2>Events</h2>
<p><code>cp-load</code>, <code>cp-error</code> and <code>cp-action</code> (what the component sends with <code>window.cpSend</code>), newest first.</p>
<ol id="log" reversed></ol>
</section>
</div>
<div id="probe" aria-hidden="true"></div>
</body>
</html>
`;
}
