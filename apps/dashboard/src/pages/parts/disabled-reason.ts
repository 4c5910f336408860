import { html, type SafeHtml } from '@cp/web-forms';

/**
 * A control the visitor may not use stays visible, disabled, and points at a note that says why (the
 * server refuses it anyway, with the same words). Spread `disabled` into each refused control and put
 * `note` near them; both are empty when the control is allowed.
 */
export interface Gate {
  readonly allowed: boolean;
  /** ` disabled aria-describedby="…"`, or nothing when allowed. */
  readonly disabled: SafeHtml | '';
  /** The note the disabled controls point at, or nothing when allowed. */
  readonly note: SafeHtml | '';
}

/** How a reason note stands: its own paragraph (`p`), or beside the controls in a row (`span`). */
export type NoteElement = 'p' | 'span';

/** The hint with the `id` that a disabled control's `aria-describedby` names. */
export const reasonNote = (reason: string | SafeHtml, id: string, element: NoteElement = 'p'): SafeHtml =>
  element === 'p'
    ? html`<p class="hint" id="${id}">${reason}</p>`
    : html`<span class="hint" id="${id}">${reason}</span>`;

/** `reason` null: allowed. Otherwise the controls are disabled, described by the note with `id`. */
export function disabledWithReason(reason: string | null, id: string, element: NoteElement = 'p'): Gate {
  if (reason === null) return { allowed: true, disabled: '', note: '' };
  return {
    allowed: false,
    disabled: html` disabled aria-describedby="${id}"`,
    note: reasonNote(reason, id, element),
  };
}
