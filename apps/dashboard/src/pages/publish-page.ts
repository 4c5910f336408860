import { canPublishTo, type PublishPreview } from '@cp/domain';
import { csrfInput, html } from '@cp/web-forms';
import { type Chrome, layout } from './layout.js';
import { protectedNote } from './protected-note.js';

/** The confirmation step of a publish or roll back: what will change, then one POST. */
export function publishPage(preview: PublishPreview, chrome: Chrome): string {
  const { component, variant, environment: chosen, serving } = preview;
  const verb = preview.rollBack ? 'Roll back' : 'Publish';
  const allowed = (env: (typeof preview.environments)[number]) => canPublishTo(preview.role, env);
  // A member may not publish to a protected environment: the button stays, disabled, and says why (the POST is refused anyway).
  const blocked = chosen === null ? !preview.environments.some(allowed) : !allowed(chosen);
  const note = chosen === null ? html`<span class="hint" id="publish-blocked">Every environment here is protected: only owners and admins of the organization publish to them.</span>` : protectedNote(chosen.name, 'publish-blocked');
  return layout({
    title: `${verb} ${component.name}`,
    chrome,
    body: html`<h1>${verb} ${component.name} v${variant.sequence}?</h1>
${chosen === null ? '' : html`<p>${chosen.name} serves ${serving === null ? 'nothing yet' : html`v${serving.sequence}`} now. After this, hosts asking <code>/consume?id=${component.id}&amp;env=${chosen.name}</code> get v${variant.sequence} (within about a minute).</p>`}
<form method="post" action="/component/${component.id}/publish">${csrfInput(chrome.csrf)}
<input type="hidden" name="variant" value="${variant.id}">
${chosen === null
  ? html`<p><label for="environment">Environment</label> <select id="environment" name="environment">${preview.environments.map((e) => html`<option value="${e.name}"${allowed(e) ? '' : html` disabled`}>${e.name}${e.protected ? ' (protected: owners and admins)' : ''}</option>`)}</select></p>`
  : html`<input type="hidden" name="environment" value="${chosen.name}">`}
<p class="inline"><button type="submit"${blocked ? html` disabled aria-describedby="publish-blocked"` : ''}>${verb}${chosen === null ? '' : ` ${chosen.name} to v${variant.sequence}`}</button> <a class="button secondary" href="/component/${component.id}">Cancel</a>
${blocked ? note : ''}</p>
</form>`,
  });
}
