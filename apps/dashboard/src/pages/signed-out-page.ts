import { html } from '@cp/web-forms';
import { layout } from './layout.js';

/** After signing out of the dashboard: the account on the sign-in service (`issuer`) is still signed in. */
export function signedOutPage(issuer: string): string {
  return layout({
    title: 'Signed out',
    chrome: null,
    body: html`<h1>Signed out of the dashboard</h1>
<p>You are still signed in to your account on the sign-in service; <a href="${issuer}/logout">sign out there too</a> on a shared computer.</p>
<p><a href="/login">Sign in again</a></p>`,
  });
}
