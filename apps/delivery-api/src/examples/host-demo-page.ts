import { html, SafeHtml } from '@cp/web-forms';
import type { HostDemo } from './host-demo-query.js';
import { HOST_DEMO_SCRIPT } from './host-demo-script.js';

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 1.5rem;color:#1a1a1a}
form.pick{display:flex;flex-wrap:wrap;gap:.75rem 1.25rem;align-items:end;padding:1rem;background:#f4f5f7;border-radius:.5rem}
label{display:flex;flex-direction:column;font-size:.875rem;gap:.25rem}
label.check{flex-direction:row;align-items:center}
input[type=text]{font:inherit;padding:.35rem .5rem;min-width:22rem}
.stage{border:1px dashed #99a;border-radius:.5rem;padding:1rem;margin:1rem 0;min-height:4rem}
.tools{display:grid;grid-template-columns:1fr 1fr;gap:1.5rem}
textarea{width:100%;min-height:8rem;font:14px ui-monospace,monospace;box-sizing:border-box}
#log{font:13px ui-monospace,monospace;max-height:16rem;overflow:auto;padding-left:1.5rem}
.error{color:#a40000;font-weight:600}
code{background:#f0f0f0;padding:0 .25rem}
`;

/** The values the form shows: the demo's, or what was submitted when it was refused. */
export interface FormValues {
  readonly component: string;
  readonly env: string;
  readonly preview: boolean;
  readonly isolation: string;
  readonly live: boolean;
}

export const formValuesOf = (demo: HostDemo): FormValues => ({
  component: demo.componentId ?? '',
  env: demo.env,
  preview: demo.preview,
  isolation: demo.isolation ?? '',
  live: demo.live,
});

function pickForm(values: FormValues): SafeHtml {
  const option = (value: string, label: string) => html`<option value="${value}"${values.isolation === value ? html` selected` : ''}>${label}</option>`;
  return html`<form class="pick" method="get" action="host">
<label>Component id <input type="text" name="component" value="${values.component}" placeholder="3f1c2a9e-8d4b-4c6f-9a71-2b5e0d7c4e11" required spellcheck="false"></label>
<label>Environment <input type="text" name="env" value="${values.env}" size="10"></label>
<label class="check"><input type="checkbox" name="preview" value="true"${values.preview ? html` checked` : ''}> preview (latest upload)</label>
<label>Isolation <select name="isolation">${option('', 'default (from the loader)')}${option('iframe', 'iframe')}${option('shadow', 'shadow root')}</select></label>
<label class="check"><input type="checkbox" name="live" value="true"${values.live ? html` checked` : ''}> live</label>
<button type="submit">Show</button>
</form>`;
}

function componentElement(demo: HostDemo & { componentId: string }): SafeHtml {
  const target = demo.preview ? html` preview` : html` env="${demo.env}"`;
  const isolation = demo.isolation === null ? '' : html` isolation="${demo.isolation}"`;
  return html`<cp-component component-id="${demo.componentId}"${target}${isolation}${demo.live ? html` live` : ''}>
<p slot="loading">Loading…</p>
<p slot="error" class="error">The component could not be shown: the log says why.</p>
</cp-component>`;
}

/** Where the page loads the SDK from, and the pinned alternative it shows in its snippet. */
export interface SdkUrls {
  /** What this page loads: relative to it, so the page works on whatever address reached it. */
  readonly page: string;
  readonly stable: string;
  readonly pinned: string;
  readonly integrity: string;
}

function workbench(demo: HostDemo & { componentId: string }, sdk: SdkUrls): SafeHtml {
  const element = `${componentElement(demo).value.split('\n')[0]}</cp-component>`;
  const snippet = `<script type="module" src="${sdk.stable}"></script>\n${element}`;
  const pinned = `<script type="module" src="${sdk.pinned}"\n        integrity="${sdk.integrity}" crossorigin="anonymous"></script>\n${element}`;
  return html`<div class="stage">${componentElement(demo)}</div>
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
<section>
<h2>Who the user is</h2>
<form id="user-form">
<p>What picks the user's arm while an experience or a rollout is live: passed to the element as <code>key</code> and
<code>attributes</code>, and never sent by the SDK (it picks the arm in this page).</p>
<label>Key (the host's stable id for the user) <input type="text" id="user-key" maxlength="256" spellcheck="false" placeholder="account-42"></label>
<label for="user-attributes">Attributes (JSON, names to strings)</label>
<textarea id="user-attributes" spellcheck="false" placeholder='{"country": "DE", "plan": "pro"}'></textarea>
<button type="submit">Apply</button> <output id="user-status" role="status"></output>
</form>
<p>Shown: <output id="shown">nothing yet</output></p>
</section>
<h2>This page's markup</h2>
<pre><code>${snippet}</code></pre>
<p>Pinned to this exact SDK build (cached for a year, checked by the browser):</p>
<pre><code>${pinned}</code></pre>`;
}

/** The demo host page: the form, and with a component, the element, the data box and the event log. */
export function renderHostDemoPage(options: { sdk: SdkUrls; demo: HostDemo | null; form: FormValues; error: string | null }): string {
  const { demo } = options;
  const shown = demo !== null && demo.componentId !== null ? { ...demo, componentId: demo.componentId } : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Host page demo${shown ? html` · ${shown.componentId}` : ''}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<h1>Host page demo</h1>
<p>Renders a released component through the host SDK, as any web page would. Pick a component id and an environment.</p>
${pickForm(options.form)}
${options.error === null ? '' : html`<p class="error" role="alert">${options.error}</p>`}
${shown === null ? '' : workbench(shown, options.sdk)}
${shown === null ? '' : html`<script type="module">${new SafeHtml(HOST_DEMO_SCRIPT)}</script>
<script type="module" src="${options.sdk.page}"></script>`}
</body>
</html>
`.value;
}
