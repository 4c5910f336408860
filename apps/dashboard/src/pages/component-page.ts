import { can, canPublishTo, Permission, type ComponentPageView, type EnvironmentReleases, type ExperienceView, type ReleaseRequestList, type Role, type WeeklyReleaseCount } from '@cp/domain';
import { html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { hostSnippetSection, type HostLinks } from './host-snippet.js';
import { releasesPerWeekSection } from './charts/releases-per-week.js';
import { bytes, type Chrome, layout, when } from './layout.js';
import { pager, type PagerLinks } from './pager.js';
import { actionForm } from './parts/action-form.js';
import { reasonNote } from './parts/disabled-reason.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';
import { roleGate } from './parts/role-gate.js';
import { protectedNote } from './protected-note.js';
import { releaseRequestsSection } from './release-requests-page.js';
import { componentTabs } from './component-tabs.js';
import { experienceCell } from './experiences/experience-cell.js';
import { appSection, type AppSectionContent } from './app-section.js';

/** Where the page's links go (the routes own the URLs). */
export interface ComponentPageLinks {
  readonly variants: PagerLinks;
  readonly history: PagerLinks;
  /** This page previewing another variant (the lists where they are). */
  readonly preview: (variantId: string) => string;
}

export interface ComponentPageContent {
  readonly view: ComponentPageView;
  readonly chrome: Chrome;
  readonly notice: string | null;
  /** Where hosts fetch the component (`/consume?id=`). */
  readonly consumeUrl: string;
  /** The host SDK and its demo page, for "Show it on a web page". */
  readonly host: HostLinks;
  readonly links: ComponentPageLinks;
  /** The component's pending release requests. */
  readonly requests?: ReleaseRequestList;
  /** Its release events per week, oldest first (the chart). */
  readonly releasesPerWeek: readonly WeeklyReleaseCount[];
  /** Each environment's experience and live rollout, by environment id. */
  readonly experiences: ReadonlyMap<string, ExperienceView>;
  /** "In AI assistants": the app, the visitor's tool for it, the form. */
  readonly app: Pick<AppSectionContent, 'app' | 'tool' | 'form' | 'error' | 'guideUrl'>;
}

/** The component page: details, tags, environments, the host snippets, in AI assistants, variants with a preview, releases per week, release history. */
export function componentPage(content: ComponentPageContent): string {
  const { view, links } = content;
  const { component, variants, history, preview } = view;
  /** "v3" for a variant id, "—" for none. */
  const label = (id: string | null) => {
    const variant = id === null ? undefined : view.variantsById.get(id);
    return id === null ? '—' : variant === undefined ? 'an unknown variant' : `v${variant.sequence}`;
  };
  const person = (userId: string) => view.emails.get(userId) ?? 'a former member';
  const tagGate = roleGate(view.role, Permission.Write, 'edit tags', 'tags-role-note');
  return layout({
    title: component.name,
    chrome: content.chrome,
    body: html`<h1>${component.name}</h1>
${componentTabs({ component: `/component/${component.id}`, usage: `/component/${component.id}/usage` }, 'overview')}
${noticeBox(content.notice)}
${component.description ? html`<p>${component.description}</p>` : ''}
<p class="hint">Id <code>${component.id}</code> · updated ${when(component.updatedAt)} · preview at <code>${content.consumeUrl}</code></p>
<h2 id="tags-heading">Tags</h2>
${component.tags.length === 0 ? emptyState('No tags.', true) : html`<ul class="tags" aria-labelledby="tags-heading">${component.tags.map((t) => html`<li>${t}</li>`)}</ul>`}
${actionForm({
  action: `/component/${component.id}/tags`,
  csrf: content.chrome.csrf,
  label: 'Save tags',
  // The field keeps its own description (the format); the button points at the reason.
  controls: html`<label for="tags">Edit tags</label><input type="text" id="tags" name="tags" value="${component.tags.join(', ')}" aria-describedby="tags-hint" size="40"${tagGate.allowed ? '' : html` disabled`}>`,
  disabled: tagGate.disabled,
  inline: true,
})}
${tagGate.note}
<p class="hint" id="tags-hint">Comma-separated. Saving replaces the list; an empty field removes every tag. No new version is made.</p>
<h2>Environments</h2>
${listTable({ columns: ['Environment', 'Released', 'Experience or rollout', html`<span class="hint">Actions</span>`], rows: view.environments.map((env) => environmentRow(component.id, env, view.role, label, content.experiences.get(env.environment.id))) })}
${content.requests === undefined || content.requests.requests.length === 0 ? '' : html`<h2 id="release-requests">Pending release requests</h2>
${releaseRequestsSection(content.requests, content.chrome.csrf, `/component/${component.id}`)}`}
${hostSnippetSection(component.id, view.environments, content.host, {
  privatePreviews: content.chrome.organizations.find((o) => o.id === component.organizationId)?.privatePreviews ?? false,
  settingsUrl: `/orgs/${component.organizationId}/previews`,
})}
${appSection({ ...content.app, componentId: component.id, role: view.role, environments: view.environments, csrf: content.chrome.csrf })}
<h2 id="variants">Variants</h2>
${listTable({
  columns: ['Variant', 'Size', 'SHA-256', 'Uploaded by', 'When', 'Live in', html`<span class="hint">Actions</span>`],
  rows: variants.items.map(({ variant, environments: live }) => html`<tr><th scope="row">v${variant.sequence}</th><td>${bytes(variant.size)}</td><td class="mono">${variant.sha256}</td><td>${person(variant.createdBy)}</td><td>${when(variant.createdAt)}</td><td>${live.join(', ') || '—'}</td>
<td class="inline"><a href="${links.preview(variant.id)}">Preview</a> <a href="/component/${component.id}/publish?variant=${variant.id}">Publish…</a></td></tr>`),
  empty: emptyState(variants.isLatest ? 'No variant yet.' : 'No older variant.'),
})}
${pager('Variants', 'variants', links.variants)}
${preview === null ? '' : html`<h2 id="preview">Preview of v${preview.sequence}</h2>
<iframe class="preview" sandbox="allow-scripts" src="/component/${component.id}/variants/${preview.id}/preview" title="Preview of ${component.name} v${preview.sequence}"></iframe>`}
${releasesPerWeekSection(content.releasesPerWeek)}
<h2 id="release-history">Release history</h2>
${listTable({
  columns: ['When', 'Environment', 'Variant', 'Replaced', 'By'],
  rows: history.items.map((e) => html`<tr><td>${when(e.releasedAt)}</td><td>${e.environmentName}</td><td>${label(e.variantId)}</td><td>${label(e.previousVariantId)}</td><td>${person(e.releasedBy)}</td></tr>`),
  empty: emptyState(history.isLatest ? 'Nothing released yet.' : 'No release event here: see the latest ones.', true),
})}
${pager('Release history', 'release events', links.history)}`,
  });
}

/**
 * One environment's row: what it serves, "Publish" the latest variant, "Roll back" (the domain's choice).
 * Where the person's role may not publish (a protected environment, a member), the buttons are disabled and say why.
 */
function environmentRow(componentId: string, env: EnvironmentReleases, role: Role, label: (variantId: string | null) => string, experience: ExperienceView | undefined): SafeHtml {
  const publishHref = (variantId: string) => `/component/${componentId}/publish?environment=${env.environment.name}&variant=${variantId}`;
  const { current, publish, rollBack } = env;
  // Members may use them on a protected environment too: their publish there becomes a release request.
  const allowed = can(role, Permission.Publish);
  const asks = allowed && !canPublishTo(role, env.environment);
  const noteId = `protected-${env.environment.id}`;
  const action = (href: string, text: string, style: string): SafeHtml =>
    allowed ? html`<a class="${style}" href="${href}"${asks ? html` aria-describedby="${noteId}"` : ''}>${text}</a>` : html`<button type="button" class="${style}" disabled aria-describedby="${noteId}">${text}</button>`;
  return html`<tr><th scope="row">${env.environment.name}</th><td>${current === null ? html`<span class="hint">nothing released</span>` : html`${label(current.variantId)} <span class="hint">since ${when(current.releasedAt)}</span>`}</td>
<td>${experienceCell(componentId, env.environment.name, experience, label)}</td>
<td class="inline">${publish === null ? '' : action(publishHref(publish.id), `Publish v${publish.sequence}`, 'button')}
${rollBack === null ? '' : action(publishHref(rollBack.id), `Roll back to ${label(rollBack.id)}`, 'button secondary')}
${publish === null && rollBack === null ? '' : !allowed ? reasonNote(`Your role in this organization is ${role}: viewers cannot publish.`, noteId, 'span') : asks ? protectedNote(env.environment.name, noteId) : ''}</td></tr>`;
}
