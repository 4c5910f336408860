import { API_TOKEN_LIMITS, can, Permission, type Environment, type Role } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import type { ScopeForm } from '../../routes/credential-form.js';

/** A component as the narrowing offers it. */
export interface ComponentChoice {
  readonly id: string;
  readonly name: string;
}

export interface ScopeFieldset {
  /** Ids of the fields start with it, so two forms on a page never share an id. */
  readonly idPrefix: string;
  readonly form: ScopeForm;
  readonly role: Role;
  readonly environments: readonly Environment[];
  readonly components: readonly ComponentChoice[];
  /** Whether the list of components was cut at the use case's page size. */
  readonly moreComponents: boolean;
  /** A `Gate`'s `disabled`, for every field. */
  readonly disabled: SafeHtml | '';
}

const box = (id: string, name: string, value: string, isChecked: boolean, label: SafeHtml | string, off: SafeHtml | ''): SafeHtml =>
  html`<span class="check wrap"><input type="checkbox" id="${id}" name="${name}" value="${value}"${isChecked ? html` checked` : ''}${off}><label for="${id}">${label}</label></span> `;

/** A choice of its own line: its label is a sentence. */
const radio = (id: string, name: string, value: string, isChecked: boolean, label: SafeHtml | string, off: SafeHtml | '', note: SafeHtml | '' = ''): SafeHtml =>
  html`<p class="check wrap"><input type="radio" id="${id}" name="${name}" value="${value}"${isChecked ? html` checked` : ''}${off}><label for="${id}">${label}</label>${note}</p>`;

/**
 * The narrowing an API token and a CI trust policy share: read or write, the environments it may
 * release to, every component or some, and protected environments (offered only to a role that
 * publishes there itself: a credential never exceeds its creator).
 */
export function scopeFieldset(s: ScopeFieldset): SafeHtml {
  const { idPrefix: p, form, disabled: off } = s;
  const mayWrite = can(s.role, Permission.Write);
  const mayProtected = can(s.role, Permission.PublishProtected);
  const protectedNames = s.environments.filter((e) => e.protected).map((e) => e.name);
  const writeNote = mayWrite ? '' : html` <span class="hint" id="${p}-write-note">Your role here is ${s.role}: its credentials only read.</span>`;
  const writeOff = mayWrite ? off : html` disabled aria-describedby="${p}-write-note"`;
  const protectedField = mayProtected
    ? html`<p class="check wrap"><input type="checkbox" id="${p}-protected" name="protectedEnvironments" value="on"${form.protectedEnvironments ? html` checked` : ''}${off}><label for="${p}-protected">May release to protected environments directly</label></p>
<p class="hint">Unticked, a release to a protected environment${protectedNames.length === 0 ? '' : ` (${protectedNames.join(', ')})`} becomes a release request for an owner or admin to approve.</p>`
    : html`<p class="hint">A release to a protected environment${protectedNames.length === 0 ? '' : ` (${protectedNames.join(', ')})`} becomes a release request, as yours does.</p>`;
  const components =
    s.components.length === 0
      ? html`<p class="hint">The organization has no component yet: choose all components to include the ones uploaded later.</p>`
      : html`<div>${s.components.map((c) => box(`${p}-component-${c.id}`, 'componentIds', c.id, form.componentIds.includes(c.id), c.name, off))}</div>
${s.moreComponents ? html`<p class="hint">Only the first ${s.components.length} components are listed.</p>` : ''}
<p class="hint">At most ${API_TOKEN_LIMITS.componentsPerScope} components; beyond that, choose all.</p>`;
  return html`<fieldset><legend>Access</legend>
${radio(`${p}-access-read`, 'access', 'read', form.access !== 'write', html`Read <span class="hint">(what a viewer may do)</span>`, off)}
${radio(`${p}-access-write`, 'access', 'write', form.access === 'write', html`Write <span class="hint">(upload and release, as a member at most)</span>`, writeOff, writeNote)}
</fieldset>
<fieldset><legend>Environments it may release to</legend>
<p class="hint">Write access only: a read credential releases nowhere.</p>
${s.environments.map((e) => box(`${p}-env-${e.name}`, 'environments', e.name, form.environments.includes(e.name), e.protected ? html`${e.name} <span class="hint">(protected)</span>` : e.name, off))}
${protectedField}
</fieldset>
<fieldset><legend>Components</legend>
${radio(`${p}-components-all`, 'components', 'all', form.components !== 'chosen', 'All components, those uploaded later too', off)}
${radio(`${p}-components-chosen`, 'components', 'chosen', form.components === 'chosen', 'Only the ones ticked', off)}
${components}
</fieldset>`;
}
