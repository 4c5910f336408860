import type { Component, ReleaseEvent, Variant } from '@cp/domain';
import { html } from '@cp/web-forms';
import { bytes, type Chrome, csrfInput, layout, noticeBox, when } from './layout.js';
import { pager, type PagerLinks } from './pager.js';

/** One environment's row: what it serves, and the releases offered from there. */
export interface EnvironmentRow {
  readonly name: string;
  readonly current: { readonly label: string; readonly since: Date } | null;
  readonly publish: { readonly href: string; readonly label: string } | null;
  readonly rollBack: { readonly href: string; readonly label: string } | null;
}

/** One page of a keyset list, with what to say when it is empty and where the list goes from here. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly empty: string;
  readonly links: PagerLinks;
}

export interface ComponentPageView {
  readonly component: Component;
  readonly chrome: Chrome;
  readonly notice: string | null;
  /** Where hosts fetch the component (`/consume?id=`). */
  readonly consumeUrl: string;
  readonly environments: readonly EnvironmentRow[];
  readonly variants: ListPage<{ readonly variant: Variant; readonly environments: readonly string[] }>;
  readonly preview: Variant | null;
  readonly history: ListPage<ReleaseEvent>;
  /** Email by user id. */
  readonly people: ReadonlyMap<string, string>;
  /** "v3" for a variant id, "—" for none. */
  readonly label: (variantId: string | null) => string;
  /** This page previewing another variant (the lists where they are). */
  readonly previewHref: (variantId: string) => string;
}

/** The component page: details, tags, environments, variants with a preview, release history. */
export function componentPage(view: ComponentPageView): string {
  const { component, variants, history, preview, people, label } = view;
  return layout({
    title: component.name,
    chrome: view.chrome,
    body: html`<h1>${component.name}</h1>
${noticeBox(view.notice)}
${component.description ? html`<p>${component.description}</p>` : ''}
<p class="hint">Id <code>${component.id}</code> · updated ${when(component.updatedAt)} · preview at <code>${view.consumeUrl}</code></p>
<h2 id="tags-heading">Tags</h2>
${component.tags.length === 0 ? html`<p class="hint">No tags.</p>` : html`<ul class="tags" aria-labelledby="tags-heading">${component.tags.map((t) => html`<li>${t}</li>`)}</ul>`}
<form method="post" action="/component/${component.id}/tags" class="inline">${csrfInput(view.chrome.csrf)}
<label for="tags">Edit tags</label><input type="text" id="tags" name="tags" value="${component.tags.join(', ')}" aria-describedby="tags-hint" size="40">
<button type="submit">Save tags</button></form>
<p class="hint" id="tags-hint">Comma-separated. Saving replaces the list; an empty field removes every tag. No new version is made.</p>
<h2>Environments</h2>
<table><thead><tr><th scope="col">Environment</th><th scope="col">Released</th><th scope="col"><span class="hint">Actions</span></th></tr></thead><tbody>${view.environments.map((env) => html`<tr><th scope="row">${env.name}</th><td>${env.current === null ? html`<span class="hint">nothing released</span>` : html`${env.current.label} <span class="hint">since ${when(env.current.since)}</span>`}</td>
<td class="inline">${env.publish === null ? '' : html`<a class="button" href="${env.publish.href}">${env.publish.label}</a>`}
${env.rollBack === null ? '' : html`<a class="button secondary" href="${env.rollBack.href}">${env.rollBack.label}</a>`}</td></tr>`)}</tbody></table>
<h2 id="variants">Variants</h2>
${variants.items.length === 0 ? html`<p>${variants.empty}</p>` : html`<table><thead><tr><th scope="col">Variant</th><th scope="col">Size</th><th scope="col">SHA-256</th><th scope="col">Uploaded by</th><th scope="col">When</th><th scope="col">Live in</th><th scope="col"><span class="hint">Actions</span></th></tr></thead>
<tbody>${variants.items.map(({ variant, environments: live }) => html`<tr><th scope="row">v${variant.sequence}</th><td>${bytes(variant.size)}</td><td class="mono">${variant.sha256}</td><td>${people.get(variant.createdBy)}</td><td>${when(variant.createdAt)}</td><td>${live.join(', ') || '—'}</td>
<td class="inline"><a href="${view.previewHref(variant.id)}">Preview</a> <a href="/component/${component.id}/publish?variant=${variant.id}">Publish…</a></td></tr>`)}</tbody></table>`}
${pager('Variants', 'variants', variants.links)}
${preview === null ? '' : html`<h2 id="preview">Preview of v${preview.sequence}</h2>
<iframe class="preview" sandbox="allow-scripts" src="/component/${component.id}/variants/${preview.id}/preview" title="Preview of ${component.name} v${preview.sequence}"></iframe>`}
<h2 id="release-history">Release history</h2>
${history.items.length === 0 ? html`<p class="hint">${history.empty}</p>` : html`<table><thead><tr><th scope="col">When</th><th scope="col">Environment</th><th scope="col">Variant</th><th scope="col">Replaced</th><th scope="col">By</th></tr></thead>
<tbody>${history.items.map((e) => html`<tr><td>${when(e.releasedAt)}</td><td>${e.environmentName}</td><td>${label(e.variantId)}</td><td>${label(e.previousVariantId)}</td><td>${people.get(e.releasedBy)}</td></tr>`)}</tbody></table>`}
${pager('Release history', 'release events', history.links)}`,
  });
}
