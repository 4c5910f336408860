import { describeScope, orderScopes } from '@cp/domain';
import { errorBox, html, type SafeHtml } from '@cp/web-forms';
import { layout } from './layout.js';

/** The error summary's id, which the code field points to. */
const ERROR_ID = 'code-error';

/** How a device is named on the pages: the name the CLI sent, or a neutral phrase. */
const deviceLabel = (deviceName: string | null): string => deviceName ?? 'A device that gave no name';

export interface CodeEntryPage {
  readonly action: string;
  /** The hidden fields oidc-provider checks (its own CSRF token, bound to the browser session). */
  readonly hidden: SafeHtml;
  readonly userCode: string;
  readonly error: string | null;
}

/** `/device`: the person types the code their terminal shows. */
export function codeEntryPage(page: CodeEntryPage): string {
  const described = page.error === null ? '' : html` aria-invalid="true" aria-describedby="${ERROR_ID}"`;
  return layout({
    title: 'Connect a device',
    body: html`<h1>Connect a device</h1>
<p>Enter the code shown in your terminal (for example by <code>cpc login</code>).</p>
${errorBox(page.error, ERROR_ID)}
<form method="post" action="${page.action}" novalidate>
${page.hidden}
<label for="user_code">Code</label>
<input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" required value="${page.userCode}"${described} autofocus>
<p class="hint">Eight letters, like <code>BCDF-GHJK</code>.</p>
<div class="actions"><button type="submit">Continue</button></div>
</form>
<p class="hint">Only enter a code you got yourself, from a device in front of you. Never enter a code someone sent you.</p>`,
  });
}

export interface DeviceConfirmPage {
  readonly action: string;
  /** The hidden fields of the form (oidc-provider's or ours, with the code or the interaction). */
  readonly hidden: SafeHtml;
  readonly clientName: string;
  readonly deviceName: string | null;
  readonly userCode: string | null;
  /** Null: not signed in yet; the sign-in page comes next. */
  readonly accountEmail: string | null;
  readonly scopes: readonly string[];
  /** The two buttons' `name="value"`: oidc-provider's `confirm`/`abort`, or the consent form's `decision`. */
  readonly allow: { readonly name: string; readonly value: string };
  readonly deny: { readonly name: string; readonly value: string };
}

/**
 * The confirmation: the device's name, the account and the scopes. Allowing here is the
 * consent (the CLI is first-party, the person started it in their terminal).
 */
export function deviceConfirmPage(page: DeviceConfirmPage): string {
  const device = deviceLabel(page.deviceName);
  return layout({
    title: 'Connect this device?',
    body: html`<h1>Connect this device?</h1>
<p><strong class="device-name">${device}</strong> (${page.clientName}, the component platform's command line) asks to use your account.</p>
${page.userCode === null ? '' : html`<p>Its code is <strong><code>${page.userCode}</code></strong>: check that your terminal shows the same code.</p>`}
${
  page.accountEmail === null
    ? html`<p>You will sign in, or create an account, next.</p>`
    : html`<p>Signed in as <strong>${page.accountEmail}</strong>. <a href="/logout">Not you?</a></p>`
}
<p>It will be able to:</p>
<ul class="scopes">${orderScopes(page.scopes).map((scope) => html`<li>${describeScope(scope)} <span class="hint">(<code>${scope}</code>)</span></li>`)}</ul>
<p class="notice">Only allow this if you started the sign-in yourself, on a device you are using now. If someone sent you this link or code, deny.</p>
<form method="post" action="${page.action}">
${page.hidden}
<div class="actions">
<button type="submit" name="${page.allow.name}" value="${page.allow.value}">${page.accountEmail === null ? 'Continue' : 'Allow'}</button>
<button type="submit" name="${page.deny.name}" value="${page.deny.value}" class="secondary">Deny</button>
</div>
</form>
<p class="hint">You can disconnect it at any time under Account, Connected applications.</p>`,
  });
}

/** After the confirmation: the terminal gets its tokens at its next poll. */
export function deviceDonePage(page: { clientName: string; deviceName: string | null; accountEmail: string | null }): string {
  return layout({
    title: 'Device connected',
    body: html`<h1>Device connected</h1>
<p><strong class="device-name">${deviceLabel(page.deviceName)}</strong> is now signed in${page.accountEmail === null ? '' : html` as <strong>${page.accountEmail}</strong>`}. Go back to your terminal: ${page.clientName} continues on its own within a few seconds.</p>
<p>You can close this page. To disconnect the device later, revoke "${page.clientName}" under <a href="/account">Account</a>.</p>`,
  });
}

/** Why a device login ended in the browser (denied, expired, already used). */
export type DeviceEnding = 'denied' | 'expired' | 'used';

const ENDINGS: Readonly<Record<DeviceEnding, { title: string; message: string }>> = {
  denied: {
    title: 'Device not connected',
    message: 'You denied access: the device gets nothing. You can close this page.',
  },
  expired: {
    title: 'This code expired',
    message: 'A code is valid for a few minutes only. Run the login in your terminal again (cpc login) to get a new code.',
  },
  used: {
    title: 'This code was already used',
    message: 'Someone already confirmed or denied this code. If it was not you, run the login in your terminal again to get a new code.',
  },
};

export function deviceEndingPage(ending: DeviceEnding): string {
  const { title, message } = ENDINGS[ending];
  return layout({ title, body: html`<h1>${title}</h1>\n<p>${message}</p>\n<p><a href="/device">Enter another code</a></p>` });
}
