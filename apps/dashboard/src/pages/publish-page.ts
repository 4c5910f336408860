import { can, canPublishTo, Permission, type PublishPreview } from '@cp/domain';
import { csrfInput, html } from '@cp/web-forms';
import { type Chrome, layout } from './layout.js';
import { disabledWithReason } from './parts/disabled-reason.js';
import { protectedNote } from './protected-note.js';

/** The confirmation step of a publish or roll back: what will change, then one POST. */
export function publishPage(preview: PublishPreview, chrome: Chrome): string {
  const { component, variant, environment: chosen, serving } = preview;
  const verb = preview.rollBack ? 'Roll back' : 'Publish';
  // A viewer publishes nowhere: the button stays, disabled, and says why (the POST is refused anyway).
  const allowed = () => can(preview.role, Permission.Publish);
  const gate = disabledWithReason(allowed() ? null : `Your role in this organization is ${preview.role}: only owners, admins and members publish.`, 'publish-blocked', 'span');
  const blocked = !gate.allowed;
  // A member's publish to a protected environment becomes a release request for an owner or admin.
  const asks = chosen !== null && !blocked && !canPublishTo(preview.role, chosen);
  return layout({
    title: `${verb} ${component.name}`,
    chrome,
    body: html`<h1>${verb} ${component.name} v${variant.sequence}?</h1>
${chosen === null ? '' : html`<p>${chosen.name} serves ${serving === null ? 'nothing yet' : html`v${serving.sequence}`} now. After this, hosts asking <code>/consume?id=${component.id}&amp;env=${chosen.name}</code> get v${variant.sequence} (within about a minute).</p>`}
<form method="post" action="/component/${component.id}/publish">${csrfInput(chrome.csrf)}
<input type="hidden" name="variant" value="${variant.id}">
${chosen === null
  ? html`<p><label for="environment">Environment</label> <select id="environment" name="environment">${preview.environments.map((e) => html`<option value="${e.name}"${allowed() ? '' : html` disabled`}>${e.name}${e.protected ? (canPublishTo(preview.role, e) ? ' (protected)' : ' (protected: sends a release request)') : ''}</option>`)}</select></p>`
  : html`<input type="hidden" name="environment" value="${chosen.name}">`}
<p class="inline"><button type="submit"${gate.disabled}>${verb}${chosen === null ? '' : ` ${chosen.name} to v${variant.sequence}`}</button> <a class="button secondary" href="/component/${component.id}">Cancel</a>
${gate.note}${asks ? protectedNote(chosen.name, 'publish-request') : ''}</p>
</form>`,
  });
}
