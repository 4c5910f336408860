import { csrfInput, html, type SafeHtml } from '@cp/web-forms';

export interface ActionForm {
  /** Where the form posts. */
  readonly action: string;
  readonly csrf: string;
  /** The button's visible text. */
  readonly label: string;
  /** The button's accessible name where the label alone is ambiguous in a list ("Revoke staging host"); keep the label's words in it. */
  readonly name?: string;
  /** `danger` for what removes or revokes; none for the main action. */
  readonly style?: 'secondary' | 'danger' | undefined;
  /** Hidden fields sent with it: which item, which way. */
  readonly fields?: Readonly<Record<string, string>>;
  /** What the person fills in first (a reason, a new name), before the button. */
  readonly controls?: SafeHtml;
  /** A `Gate`'s `disabled`: the button disabled and pointing at why. */
  readonly disabled?: SafeHtml | '';
  /** Said right after the button (a `Gate`'s `note`). */
  readonly note?: SafeHtml | '';
  /** In a line with the other actions of the row (`class="inline"`). */
  readonly inline?: boolean;
  /** `disabled` after the accessible name instead of before it: the members page's order, which its tests read. */
  readonly disabledLast?: boolean;
}

/**
 * The row action: one action on one item as its own small POST form with the CSRF token (a list's
 * Revoke, Remove, Rename, Redeliver), and likewise a page's switch or one-field form. Use it for each
 * button that changes something, so each works without JavaScript and reads alike.
 */
export function actionForm(a: ActionForm): SafeHtml {
  const hidden = Object.entries(a.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const style = a.style === undefined ? '' : html` class="${a.style}"`;
  const name = a.name === undefined ? '' : html` aria-label="${a.name}"`;
  return html`<form method="post" action="${a.action}"${a.inline === true ? html` class="inline"` : ''}>${csrfInput(a.csrf)}${hidden}${a.controls ?? ''}<button type="submit"${style}${a.disabledLast === true ? html`${name}${a.disabled ?? ''}` : html`${a.disabled ?? ''}${name}`}>${a.label}</button>${a.note ?? ''}</form>`;
}
