import { csrfInput, html } from '@cp/web-forms';
import { layout } from './layout.js';

/** A page that only says something (errors, "signed out", "sign-up disabled"). */
export function messagePage(options: { title: string; message: string; link?: { href: string; label: string } }): string {
  return layout({
    title: options.title,
    body: html`<h1>${options.title}</h1>
<p>${options.message}</p>
${options.link === undefined ? '' : html`<p><a href="${options.link.href}">${options.link.label}</a></p>`}`,
  });
}

export function signOutPage(options: { csrf: string; signedIn: boolean }): string {
  return layout({
    title: 'Sign out',
    body: options.signedIn
      ? html`<h1>Sign out</h1>
<p>Sign out of the component platform in this browser? Applications you connected keep their access; revoke them under <a href="/account">Account</a>.</p>
<form method="post" action="/logout">${csrfInput(options.csrf)}<div class="actions"><button type="submit">Sign out</button></div></form>`
      : html`<h1>Signed out</h1><p>You are signed out in this browser.</p><p><a href="/login">Sign in</a></p>`,
  });
}
