import { credentialsForm } from './credentials-form.js';
import { html } from '@cp/web-forms';
import { layout } from './layout.js';

export interface SignInPage {
  readonly action: string;
  readonly csrf: string;
  readonly email: string;
  readonly error: string | null;
  /** The invitation token this sign-in or sign-up carries ('' when none): README "Throttling". */
  readonly invitation: string;
  /** Link to sign up, returning to the same flow afterwards; null when sign-up is disabled. */
  readonly signupHref: string | null;
  /** The application asking, when the sign-in is part of an authorization. */
  readonly clientName: string | null;
}

export function signInPage(page: SignInPage): string {
  return layout({
    title: 'Sign in',
    body: html`<h1>Sign in</h1>
${page.clientName === null ? '' : html`<p><strong>${page.clientName}</strong> wants to connect to your account. Sign in to continue.</p>`}
${credentialsForm({ action: page.action, csrf: page.csrf, email: page.email, error: page.error, newPassword: false, submitLabel: 'Sign in', invitation: page.invitation })}
${page.signupHref === null ? '' : html`<p>No account yet? <a href="${page.signupHref}">Create an account</a></p>`}`,
  });
}

export interface SignUpPage {
  readonly action: string;
  readonly csrf: string;
  readonly email: string;
  readonly error: string | null;
  /** The invitation token this sign-in or sign-up carries ('' when none): README "Throttling". */
  readonly invitation: string;
  readonly loginHref: string;
}

export function signUpPage(page: SignUpPage): string {
  return layout({
    title: 'Create an account',
    body: html`<h1>Create an account</h1>
<p>Your account comes with a personal organization with two environments, <code>staging</code> and <code>prod</code>.</p>
${credentialsForm({ action: page.action, csrf: page.csrf, email: page.email, error: page.error, newPassword: true, submitLabel: 'Create account', invitation: page.invitation })}
<p>Already have an account? <a href="${page.loginHref}">Sign in</a></p>`,
  });
}
