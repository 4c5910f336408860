import type { EnvironmentReleases } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { listTable } from './parts/list-table.js';

/** The host SDK on the delivery API (the routes own the URLs). */
export interface HostLinks {
  /** The SDK's stable URL (`/host/v1.js`). */
  readonly scriptUrl: string;
  /** The delivery API's demo page rendering this component from `env`; null: its preview. */
  readonly demo: (env: string | null) => string;
}

/** Stands for the secret in snippets: the dashboard shows a secret once, when the key is created. */
export const PREVIEW_KEY_PLACEHOLDER = 'YOUR-PREVIEW-KEY';

/**
 * The two lines a host page needs to show the component released to `env` (null: the preview, the
 * latest variant, which takes a preview key when the organization keeps previews private).
 */
export function hostSnippet(scriptUrl: string, componentId: string, env: string | null, privatePreviews = false): string {
  const target = env !== null ? `env="${env}"` : privatePreviews ? `preview preview-key="${PREVIEW_KEY_PLACEHOLDER}"` : 'preview';
  return `<script type="module" src="${scriptUrl}"></script>\n<cp-component component-id="${componentId}" ${target}></cp-component>`;
}

/**
 * "Show it on a web page": per environment (and the preview) the snippet to paste and a link to the demo
 * page. No copy button: the dashboard's pages run no script (CSP), and a `<pre>` selects whole.
 */
export function hostSnippetSection(
  componentId: string,
  environments: readonly EnvironmentReleases[],
  links: HostLinks,
  preview: { readonly privatePreviews: boolean; readonly settingsUrl: string },
): SafeHtml {
  const row = (env: string | null, label: SafeHtml, note: SafeHtml | string) => html`<tr><th scope="row">${label}</th>
<td><pre><code>${hostSnippet(links.scriptUrl, componentId, env, preview.privatePreviews)}</code></pre>${note}</td>
<td><a href="${links.demo(env)}">${env === null ? 'Demo of the preview' : `Demo of ${env}`}</a></td></tr>`;
  return html`<h2 id="host-page">Show it on a web page</h2>
<p class="hint">Paste into any page (plain HTML or a framework): the host SDK fetches the variant released to the environment and renders it isolated in a sandboxed frame. The demo page renders it the same way, with a data box and an action log.</p>
${listTable({
    columns: ['Environment', 'Snippet', html`<span class="hint">Try it</span>`],
    rows: [
      ...environments.map(({ environment, current }) =>
        row(environment.name, html`${environment.name}`, current === null ? html`<p class="hint">Nothing released here yet: until a release, the element shows its error slot.</p>` : '')),
      row(
        null,
        html`Preview <span class="hint">(latest variant)</span>`,
        preview.privatePreviews
          ? html`<p class="hint">Previews of this organization are private: replace ${PREVIEW_KEY_PLACEHOLDER} with a <a href="${preview.settingsUrl}">preview key</a> (or pass <code>previewKey</code> to <code>mount()</code>). Without one the element shows its error slot. Keep keys out of public pages.</p>`
          : '',
      ),
    ],
  })}`;
}
