import { describeScope, orderScopes } from '@cp/domain';
import { csrfInput, html } from '@cp/web-forms';
import { layout } from './layout.js';

export interface ConsentPage {
  readonly action: string;
  readonly csrf: string;
  readonly clientName: string;
  /**
   * Set when the application is identified by a client metadata document: the host
   * serving it. The name then comes from that document, which we do not verify.
   */
  readonly documentHost: string | null;
  /** Where the browser goes afterwards: `host[:port]`, or `scheme://host` for an app's own scheme. */
  readonly redirectTarget: string;
  readonly scopes: readonly string[];
  readonly accountEmail: string;
}

export function consentPage(page: ConsentPage): string {
  return layout({
    title: `Allow ${page.clientName}?`,
    body: html`<h1>Allow ${page.clientName} to use your account?</h1>
<p>Signed in as <strong>${page.accountEmail}</strong>.</p>
<p><strong>${page.clientName}</strong> will return to <strong>${page.redirectTarget}</strong> and will be able to:</p>
<ul class="scopes">${orderScopes(page.scopes).map((scope) => html`<li>${describeScope(scope)} <span class="hint">(<code>${scope}</code>)</span></li>`)}</ul>
${
  page.documentHost === null
    ? html`<p class="hint">The application registered itself and its name is not verified. Only allow it if you started this connection. You can revoke its access at any time under Account, Connected applications.</p>`
    : html`<p class="notice">This application is identified by its web address, <strong>${page.documentHost}</strong>, and describes itself in a document published there. We have not verified it or its name. Only allow it if you trust <strong>${page.documentHost}</strong> and started this connection.</p>
<p class="hint">You can revoke its access at any time under Account, Connected applications.</p>`
}
<form method="post" action="${page.action}">
${csrfInput(page.csrf)}
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>`,
  });
}
