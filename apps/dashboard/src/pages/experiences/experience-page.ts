import { canPublishTo, percentOf, Permission, type Component, type ExperienceRevision, type ExperienceView, type MovedUsers, type Role, type Variant } from '@cp/domain';
import { csrfInput, errorBox, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import type { EditorSegment } from '../../routes/experience-editor-form.js';
import { type Chrome, layout, when } from '../layout.js';
import { actionForm } from '../parts/action-form.js';
import { disabledWithReason } from '../parts/disabled-reason.js';
import { emptyState } from '../parts/empty-state.js';
import { listTable } from '../parts/list-table.js';
import { noticePanel } from '../parts/notice-panel.js';
import { roleGate } from '../parts/role-gate.js';
import { protectedNote } from '../protected-note.js';
import { experienceEditor } from './experience-editor.js';
import { experiencePath, rolloutPath } from './paths.js';

/** A publish just made, for the notice: its revision and, with the salt kept, the users each segment moved. */
export interface PublishedNotice {
  readonly revision: ExperienceRevision;
  /** Null: a new phase (a new salt), everyone drawn again. */
  readonly moved: readonly MovedUsers[] | null;
}

export interface ExperiencePageContent {
  readonly component: Component;
  readonly view: ExperienceView;
  /** The component's variants, newest first. */
  readonly variants: readonly Variant[];
  /** The environment's release (the fallback), if any. */
  readonly releaseId: string | null;
  readonly role: Role;
  readonly chrome: Chrome;
  readonly notice: string | null;
  readonly published: PublishedNotice | null;
  /** What the editor shows: the draft, the typed values of a refused save, or the result of add / remove. */
  readonly editor: readonly EditorSegment[];
  /** Why the save was refused (422), the domain's message naming the part. */
  readonly error: string | null;
}

function publishedNotice(p: PublishedNotice): SafeHtml {
  const moved =
    p.moved === null
      ? html`<p>A new phase: every user was drawn again.</p>`
      : p.moved.length === 0
        ? html`<p>Every user kept their bucket; no split that existed before changed.</p>`
        : html`<p>Every user kept their bucket. Users who changed variant, per segment:</p>
<ul>${p.moved.map((m) => html`<li data-testid="moved">${m.segment}: ${percentOf(m.moved)} of its users</li>`)}</ul>`;
  return noticePanel('status', html`<p>Revision ${p.revision.number} published: hosts get it within about a minute (cache).</p>
${moved}`);
}

/**
 * A component environment's experience: what is live, the draft in the editor, Publish (keep the
 * users' buckets or start a new phase), and the revisions with Re-publish. Viewers see every control
 * disabled with the reason; a member's publish in a protected environment becomes a release request.
 */
export function experiencePage(c: ExperiencePageContent): string {
  const { component, view } = c;
  const env = view.environment;
  const path = experiencePath(component.id, env.name);
  const gate = roleGate(c.role, Permission.Publish, 'edit and publish experiences', 'experience-role-note');
  const asks = gate.allowed && !canPublishTo(c.role, env);
  const label = (id: string) => {
    const v = c.variants.find((variant) => variant.id === id);
    return v === undefined ? 'an unknown variant' : `v${v.sequence}`;
  };
  const release = c.releaseId === null ? null : label(c.releaseId);
  const live = view.live !== null && view.live.definition.segments.length > 0 ? view.live : null;
  const blocked =
    view.liveRollout !== null
      ? 'A rollout is live here: stop or promote it before publishing an experience (one of the two at a time).'
      : release === null
        ? `Nothing is released to ${env.name} yet: the release is the experience's fallback. Publish a variant there first.`
        : null;
  // Viewers: the role's note (beside the editor) explains every disabled control.
  const publishGate = gate.allowed ? disabledWithReason(blocked ?? (view.draft === null ? 'Save a draft first.' : null), 'publish-blocked') : gate;
  const republishGate = gate.allowed ? disabledWithReason(blocked, 'republish-blocked') : gate;
  return layout({
    title: `Experience of ${component.name} in ${env.name}`,
    chrome: c.chrome,
    body: html`<p><a href="/component/${component.id}">← ${component.name}</a></p>
<h1>Experience of ${component.name} in ${env.name}</h1>
${c.published === null ? noticeBox(c.notice) : publishedNotice(c.published)}
${errorBox(c.error)}
<p class="hint">Segments are tried in order; the first whose rules all hold picks a variant, or a split among variants, from the attributes the host page passes. Everyone else, and hosts that pass no key to a split, get the release${release === null ? '' : html` (${release})`}.</p>
<p data-testid="experience-state">${live === null ? 'No experience is live: everyone gets the release.' : html`Live: revision ${live.number}, ${live.definition.segments.length} ${live.definition.segments.length === 1 ? 'segment' : 'segments'}, since ${when(live.publishedAt)}.`}
${view.liveRollout === null ? '' : html` A rollout is live here: <a href="${rolloutPath(component.id, env.name)}">see the rollout</a>.`}</p>
<h2>Draft</h2>
<p class="hint">${view.draft === null ? (view.live === null ? 'No draft yet.' : `No draft: the editor starts from revision ${view.live.number}.`) : html`Saved ${when(view.draft.updatedAt)}. A draft is checked as a publish checks it; nothing changes for users until you publish.`}</p>
${experienceEditor({ action: path, csrf: c.chrome.csrf, segments: c.editor, variants: c.variants, releaseId: c.releaseId, gate })}
<h2>Publish</h2>
<form method="post" action="${path}/publish" class="stack">${csrfInput(c.chrome.csrf)}
<input type="hidden" name="expectedLive" value="${view.live === null ? '' : String(view.live.number)}">
<fieldset><legend>When a split's weights change</legend>
<p class="check"><input type="radio" id="phase-keep" name="phase" value="keep" checked aria-describedby="phase-keep-hint"${publishGate.allowed ? '' : html` disabled`}><label for="phase-keep">Keep the users' buckets</label></p>
<p class="hint" id="phase-keep-hint">Only the users whose bucket changes arm move; the notice says how many per segment.</p>
<p class="check"><input type="radio" id="phase-new" name="phase" value="new" aria-describedby="phase-new-hint"${publishGate.allowed ? '' : html` disabled`}><label for="phase-new">Start a new phase</label></p>
<p class="hint" id="phase-new-hint">A new salt: every user is assigned again, as if for the first time.</p>
</fieldset>
<p class="inline"><button type="submit"${publishGate.disabled}>Publish the draft</button>${asks ? protectedNote(env.name, 'experience-request') : ''}</p>
${gate.allowed ? publishGate.note : ''}
</form>
<h2 id="revisions">Revisions</h2>
${listTable({
  columns: ['Revision', 'Published', 'Segments', 'Re-published from', html`<span class="hint">Actions</span>`],
  rows: view.revisions.map((r) => html`<tr><th scope="row">${r.number}</th><td>${when(r.publishedAt)}</td><td>${r.definition.segments.map((s) => s.name).join(', ') || 'none (off)'}</td><td>${r.republishedFrom === null ? '—' : String(r.republishedFrom)}</td>
<td class="inline">${actionForm({ action: `${path}/publish`, csrf: c.chrome.csrf, label: 'Re-publish', name: `Re-publish revision ${r.number}`, style: 'secondary', fields: { revision: String(r.number), phase: 'keep', expectedLive: view.live === null ? '' : String(view.live.number) }, disabled: republishGate.disabled, inline: true })}</td></tr>`),
  empty: emptyState('Nothing published yet.', true),
})}
${gate.allowed ? republishGate.note : ''}
<p class="hint">Re-publishing makes a new revision with that revision's content and keeps the users' buckets.</p>`,
  });
}
