import { html, type SafeHtml } from '@cp/web-forms';
import { actionForm } from './action-form.js';

export interface ConfirmDestroy {
  readonly action: string;
  readonly csrf: string;
  /** The button ("Delete this organization"). */
  readonly label: string;
  /** What to type, as the field's label ("Type the organization's name to confirm"). */
  readonly prompt: string;
  /** The confirmation field: its id, and its name in the form (the server compares it). */
  readonly field: { readonly id: string; readonly name: string };
  /** A `Gate`'s `disabled`, for the field and the button. */
  readonly disabled?: SafeHtml | '';
}

/**
 * Confirm before destroying what cannot be undone: the person types the item's name, and the server
 * acts only when it matches, so it works without JavaScript. Use it for deleting something whole;
 * say above it what goes with it.
 */
export function confirmDestroy(c: ConfirmDestroy): SafeHtml {
  const off = c.disabled ?? '';
  return actionForm({
    action: c.action,
    csrf: c.csrf,
    label: c.label,
    style: 'danger',
    inline: true,
    disabled: off,
    controls: html`<label for="${c.field.id}">${c.prompt}</label><input type="text" id="${c.field.id}" name="${c.field.name}" required size="32" autocomplete="off"${off}>`,
  });
}
