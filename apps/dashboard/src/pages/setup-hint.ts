import { html, type SafeHtml } from '@cp/web-forms';

/** The empty state: how a new user uploads a first component from their assistant. */
export function setupHint(mcpUrl: string): SafeHtml {
  return html`<section aria-labelledby="first-upload">
<h2 id="first-upload">Upload your first component</h2>
<ol>
<li>Connect your AI assistant to the tool server. Claude Code:
<pre><code>claude mcp add --transport http components ${mcpUrl}</code></pre>
Cursor (<code>~/.cursor/mcp.json</code>): <code>{ "mcpServers": { "components": { "url": "${mcpUrl}" } } }</code><br>
VS Code (<code>.vscode/mcp.json</code>): <code>{ "servers": { "components": { "type": "http", "url": "${mcpUrl}" } } }</code></li>
<li>Build your component into <code>dist/index.html</code>.</li>
<li>Ask the assistant to upload it (it calls <code>upload_component</code>, runs the upload command, then <code>confirm_upload</code>). It answers with a link to the component's page here.</li>
</ol>
</section>`;
}
