import { Limits } from '@cp/domain';
import { escapeHtml } from './escape-html.js';
import { hostContractSection } from './host-contract-html.js';

export interface GuideOptions {
  readonly mcpUrl: string;
  readonly dashboardUrl: string;
  readonly deliveryUrl: string;
  readonly maxUploadBytes: number;
}

const mib = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;

/**
 * The component development guide, for people first (served at GET /guide) and
 * for assistants through the public `get_service_guide` tool. Self-contained: no
 * external assets, readable without JavaScript.
 */
export function serviceGuideHtml(options: GuideOptions): string {
  const mcp = escapeHtml(options.mcpUrl);
  const dashboard = escapeHtml(options.dashboardUrl);
  const delivery = escapeHtml(options.deliveryUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Component development guide</title>
<style>
  body { font: 16px/1.55 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
  code, pre { font: 14px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; background: #f4f4f4; }
  code { padding: 0 .2em; } pre { padding: .8rem 1rem; overflow-x: auto; }
  table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .3rem .6rem; text-align: left; vertical-align: top; }
  h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
</style>
</head>
<body>
<main>
<h1>Component development guide</h1>
<p>A <strong>component</strong> is one self-contained HTML file that host applications (micro-frontend shells)
fetch at run time and render. You build it, upload it through your AI assistant, release a version to an
environment, and hosts pick it up from the delivery API without a redeploy.</p>

<nav aria-label="Contents"><ol>
  <li><a href="#contract">The <code>dist/index.html</code> contract</a></li>
  <li><a href="#host">Talking to the host page</a></li>
  <li><a href="#config">The project file <code>service.config.json</code></a></li>
  <li><a href="#upload">Uploading: two steps</a></li>
  <li><a href="#release">Releasing to environments</a></li>
  <li><a href="#consume">Consuming a component</a></li>
  <li><a href="#connect">Connecting your assistant</a></li>
  <li><a href="#apps">In the conversation: the preview and apps</a></li>
</ol></nav>

<h2 id="contract">1. The <code>dist/index.html</code> contract</h2>
<ul>
  <li>Your build writes exactly one file, <code>./dist/index.html</code>, relative to the project root. Only that file is uploaded.</li>
  <li>It must be an HTML document (it is parsed on upload; anything else is refused) and at most ${mib(options.maxUploadBytes)}.</li>
  <li>Inline your CSS and JavaScript (<code>&lt;style&gt;</code>, <code>&lt;script&gt;</code>), or reference them by absolute
      <code>https://</code> URLs. Relative URLs do not work: the host page, not your project, is the base.</li>
  <li>Hosts render the component isolated, in a sandboxed frame (the default) or in a shadow root, as each host chooses: build for both
      (section 2). Style your own elements, not <code>body</code> or <code>html</code>.</li>
  <li>Keep globals to a minimum and find your own elements from <code>window.cpRoot</code>, not with <code>document.querySelector</code> on the whole page.</li>
  <li>Every upload is stored as a new, immutable <em>version</em> with its sha256 and an SRI <code>sha384-…</code> integrity value.</li>
</ul>

${hostContractSection(options.deliveryUrl)}
<h2 id="config">3. The project file <code>service.config.json</code></h2>
<p>Keep it in the project root and commit it. The assistant reads it before uploading.</p>
<pre>{
  "name": "checkout-banner",
  "componentId": null,
  "organization": "acme"
}</pre>
<table>
  <tr><th>Field</th><th>Meaning</th></tr>
  <tr><td><code>name</code></td><td>Component name: 1–${Limits.componentNameMaxLength} characters, unique per organization (case-insensitive).</td></tr>
  <tr><td><code>componentId</code></td><td><code>null</code> until the first upload; then the id that <code>confirm_upload</code> returned. When set, uploads add a version to that component.</td></tr>
  <tr><td><code>organization</code></td><td>Organization name or id. When absent, your default organization is used.</td></tr>
</table>

<h2 id="upload">4. Uploading: two steps</h2>
<ol>
  <li><strong><code>upload_component</code></strong> with <code>name</code>, <code>componentId</code> and <code>organization</code> from
      <code>service.config.json</code>. It answers with an <code>uploadId</code> and a <code>curlCommand</code>, valid for 3600 seconds.</li>
  <li><strong>Run <code>curlCommand</code></strong> from the project root, as-is (it works in sh, bash and zsh). It sends
      <code>./dist/index.html</code> with an HTTP <code>PUT</code> straight to storage:
<pre>curl --fail -sS -X PUT -H 'Content-Type: text/html' --data-binary '@./dist/index.html' '&lt;presigned URL&gt;'</pre></li>
  <li><strong><code>confirm_upload</code></strong> with the <code>uploadId</code>. The file is checked and stored as a new version.
      For a new component, save the returned <code>componentId</code> (and <code>orgId</code> as <code>organization</code>) in
      <code>service.config.json</code>. The answer links to the component in the dashboard: <code>${dashboard}/component/&lt;componentId&gt;</code>.</li>
</ol>
<p>If <code>confirm_upload</code> says the file was not received, run the command first. If the file is too large or not HTML, fix the
build and run the same command again: the upload session stays usable until it expires. Confirming twice is safe and answers the same.</p>

<h2 id="release">5. Releasing to environments</h2>
<p>Each organization has the environments <code>staging</code> and <code>prod</code>. An upload does not change what an environment serves:
the newest version is only the <em>preview</em>.</p>
<ul>
  <li><code>publish_component</code> with <code>componentId</code> and <code>environment</code> releases the latest version;
      pass <code>variantId</code> to release a specific one.</li>
  <li>To roll back, find the earlier version with <code>list_variants</code> and publish its <code>variantId</code>.</li>
  <li>After a release, <code>get_component_usage</code> with <code>componentId</code> (and <code>window</code>: <code>24h</code>, <code>7d</code> or
      <code>30d</code>) shows renders, errors and render times per version; its <code>summary</code> says whether the newest version
      does worse than the one before it, which is when to roll back.</li>
  <li>Every release is recorded in an append-only history.</li>
  <li><code>prod</code> is <em>protected</em> in a new organization: only its owners and admins publish (or roll back) there;
      a member's publish there becomes a release request: <code>publish_component</code> answers
      <code>status: "pending_approval"</code> with the request and who can approve it, and nothing is released until an owner
      or admin approves it on the dashboard. Members publish to <code>staging</code> directly. Owners and admins protect or
      open any environment on the dashboard's environments page.</li>
  <li>On top of the release, an environment can have an <em>experience</em> (segments of users, by attributes the host page passes,
      each getting a version or a split in percent: <code>set_experience</code>, then <code>publish_experience</code>) or a
      <em>canary rollout</em> (a version served to a growing share of users, judged every minute against the release and rolled
      back by itself when its error rate rises: <code>start_rollout</code>, then <code>get_rollout</code> to follow it,
      <code>stop_rollout</code> to stop it at once). <code>get_experience</code> shows what is live.</li>
</ul>

<h2 id="consume">6. Consuming a component</h2>
<p>Most hosts use the host SDK, served by the delivery API: two lines render the version released to an environment, isolated
and sized, and talk to it (section 2):</p>
<pre>&lt;script type="module" src="${delivery}/host/v1.js"&gt;&lt;/script&gt;
&lt;cp-component component-id="&lt;componentId&gt;" env="prod"&gt;&lt;/cp-component&gt;</pre>
<p>Underneath, and for hosts that render on their own, the delivery API answers without credentials:</p>
<pre>GET ${delivery}/consume?id=&lt;componentId&gt;&amp;env=prod     the version released to prod
GET ${delivery}/consume?id=&lt;componentId&gt;              the preview (latest version)</pre>
<p>The answer is <code>{ "item": { "id", "name", "organizationId", "consume_variant": [ { "id", "name", "loader" } ] } }</code>.
The <code>loader</code> tells the host how to render the version:</p>
<table>
  <tr><th>Loader field</th><th>Meaning</th></tr>
  <tr><td><code>type</code></td><td><code>"HTMLLoader"</code>.</td></tr>
  <tr><td><code>HTML</code></td><td>Your <code>index.html</code>, byte for byte.</td></tr>
  <tr><td><code>shadowRootMode</code></td><td>The mode of the shadow root the host attaches (<code>open</code> or <code>closed</code>).</td></tr>
  <tr><td><code>autoHeight</code></td><td>Whether the host sizes the container to the content.</td></tr>
  <tr><td><code>integrity</code></td><td>SRI <code>sha384-…</code> of the HTML; hosts can check what they render.</td></tr>
  <tr><td><code>styles</code>, <code>scripts</code></td><td>The page's stylesheets and scripts (external URLs and inline blocks) extracted from your HTML.</td></tr>
</table>
<p>The deprecated <code>/flow?id=…&amp;resolve=components</code> endpoint still answers; move to <code>/consume?id=&lt;componentId&gt;&amp;env=prod</code>.</p>

<h2 id="connect">7. Connecting your assistant</h2>
<p>Register the MCP server by its URL, over HTTP; the client signs you in with OAuth on first use
(a browser window opens). For example, with Claude Code:</p>
<pre>claude mcp add --transport http components ${mcp}</pre>
<p>Read-only connections (scope <code>mcp:read</code>) can list and read; uploading, tagging and publishing need <code>mcp:write</code>.
The server applies rate limits: if you are told to wait, space requests by a few seconds and batch your work.</p>

<h2 id="apps">8. In the conversation: the preview and apps</h2>
<p>Assistants that render MCP Apps (Claude, ChatGPT, VS Code Copilot Chat, Goose, …) show the component inside the conversation.
After <code>confirm_upload</code>, <code>publish_component</code>, <code>get_component</code> or <code>list_variants</code> a card appears under the
tool call: the component's name, version, environment and release state, the component itself rendered by the host SDK from
the delivery API, and the buttons <strong>Release to staging</strong>, <strong>Roll back</strong> and <strong>Open in dashboard</strong>.
The buttons call the same tools with your connection's token: on a read-only connection they are refused and the card says so.
Every tool still answers in full text, so assistants without MCP Apps lose nothing.</p>
<p>An owner or admin can also offer a released component as an <strong>app</strong> (<code>set_component_app</code>, or the dashboard's
component page): each member's assistant then lists a tool <code>show_&lt;component&gt;_v&lt;version&gt;</code> that shows the component in the
conversation with the model's arguments as its data. To work both on web pages and as an app, a component only uses the contract of
section 2:</p>
<ul>
  <li><code>cpReceive(data)</code> gets the tool's arguments (checked against the app's input schema), as it gets a host page's data;</li>
  <li><code>cpSend(action, payload)</code> reports the action to the conversation, or calls the tool the app maps the action to;</li>
  <li><code>cpSend('cp:size', { height })</code>, or nothing (the height is measured), sizes the card;</li>
  <li>the conversation's theme arrives as <code>&lt;html data-theme="light|dark"&gt;</code> with <code>color-scheme</code> and the host's CSS
      variables (<code>--color-background-primary</code>, <code>--font-sans</code>, …) on <code>:root</code>: style with
      <code>var(--color-text-primary, #111)</code> and a fallback, and the component fits both the page and the conversation.</li>
</ul>
<p>A new release of the app's environment renames the tool (<code>…_v8</code>), so the next call shows it.</p>
</main>
</body>
</html>
`;
}
