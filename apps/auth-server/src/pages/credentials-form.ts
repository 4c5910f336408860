import { csrfInput, errorBox, html, type SafeHtml } from '@cp/web-forms';
import { PASSWORD_MIN_LENGTH } from '../accounts/passwords.js';

/** The error summary's id, which the email field points to. */
const ERROR_ID = 'form-error';

/** The email + password fields shared by the sign-in and sign-up pages. */
export function credentialsForm(options: {
  action: string;
  csrf: string;
  email: string;
  error: string | null;
  newPassword: boolean;
  submitLabel: string;
  /** The invitation token the page was opened with ('' when none), sent back with the form. */
  invitation: string;
}): SafeHtml {
  const described = options.error === null ? null : ERROR_ID;
  return html`${errorBox(options.error, ERROR_ID)}
<form method="post" action="${options.action}" novalidate>
${csrfInput(options.csrf)}
${options.invitation === '' ? '' : html`<input type="hidden" name="invitation" value="${options.invitation}">`}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${options.email}"${
    described === null ? '' : html` aria-invalid="true" aria-describedby="${described}"`
  } autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="${options.newPassword ? 'new-password' : 'current-password'}"${
    options.newPassword ? html` minlength="${PASSWORD_MIN_LENGTH}" aria-describedby="password-hint"` : ''
  }>
${options.newPassword ? html`<p class="hint" id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters.</p>` : ''}
<div class="actions"><button type="submit">${options.submitLabel}</button></div>
</form>`;
}
