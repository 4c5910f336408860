import type { FormBrowser, Page } from './sign-in.js';

const decode = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * Presses the button whose `aria-label` (or text) is `label`: submits its own form with the form's
 * hidden fields plus `fields` (what a person chose or typed), as a browser does. FormBrowser.submit picks a form by action, which cannot tell
 * apart the several forms of one page that post to the same action (a flow's Move up / Move down / Remove).
 */
export async function press(browser: FormBrowser, page: Page, label: string, fields: Record<string, string> = {}): Promise<Page> {
  const forms = [...page.html.matchAll(/<form\b[^>]*method="post"[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find(([, , body]) =>
    [...(body ?? '').matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].some(([, attributes, text]) =>
      decode(/aria-label="([^"]*)"/.exec(attributes ?? '')?.[1] ?? text ?? '').trim() === label),
  );
  if (form === undefined) throw new Error(`no button "${label}" on ${page.url}`);
  const hidden: Record<string, string> = {};
  for (const [, name, value] of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[name ?? ''] = decode(value ?? '');
  return browser.open(new URL(decode(form[1] ?? ''), page.url).href, { method: 'POST', form: { ...hidden, ...fields } });
}
