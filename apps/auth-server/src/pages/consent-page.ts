import { describeScope, orderScopes } from '@cp/domain';
import { csrfInput, html } from '@cp/web-forms';
import { layout } from './layout.js';

export interface ConsentPage {
  readonly action: string;
  readonly csrf: string;
  readonly clientName: string;
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
<p class="hint">The application registered itself and its name is not verified. Only allow it if you started this connection. You can revoke its access at any time under Account, Connected applications.</p>
<form method="post" action="${page.action}">
${csrfInput(page.csrf)}
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>`,
  });
}
