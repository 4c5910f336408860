import type { PublishPreview } from '@cp/domain';
import { csrfInput, html } from '@cp/web-forms';
import { type Chrome, layout } from './layout.js';

/** The confirmation step of a publish or roll back: what will change, then one POST. */
export function publishPage(preview: PublishPreview, chrome: Chrome): string {
  const { component, variant, environment: chosen, serving } = preview;
  const verb = preview.rollBack ? 'Roll back' : 'Publish';
  return layout({
    title: `${verb} ${component.name}`,
    chrome,
    body: html`<h1>${verb} ${component.name} v${variant.sequence}?</h1>
${chosen === null ? '' : html`<p>${chosen.name} serves ${serving === null ? 'nothing yet' : html`v${serving.sequence}`} now. After this, hosts asking <code>/consume?id=${component.id}&amp;env=${chosen.name}</code> get v${variant.sequence} (within about a minute).</p>`}
<form method="post" action="/component/${component.id}/publish">${csrfInput(chrome.csrf)}
<input type="hidden" name="variant" value="${variant.id}">
${chosen === null
  ? html`<p><label for="environment">Environment</label> <select id="environment" name="environment">${preview.environments.map((e) => html`<option value="${e.name}">${e.name}</option>`)}</select></p>`
  : html`<input type="hidden" name="environment" value="${chosen.name}">`}
<p class="inline"><button type="submit">${verb}${chosen === null ? '' : ` ${chosen.name} to v${variant.sequence}`}</button> <a class="button secondary" href="/component/${component.id}">Cancel</a></p>
</form>`,
  });
}
