import type { ComponentBrowsePage } from '@cp/domain';
import { html } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';
import { pageNumbers } from './parts/page-numbers.js';
import { setupHint } from './setup-hint.js';

/** An organization's components: search by name and tag, numbered pages, the first-upload hint when there are none. */
export function componentsPage(options: {
  organizationName: string;
  /** The search as used (trimmed). */
  name: string;
  tag: string;
  result: ComponentBrowsePage;
  chrome: Chrome;
  mcpUrl: string;
}): string {
  const { name, tag, result } = options;
  const filtered = name !== '' || tag !== '';
  const link = (p: number) => `?${new URLSearchParams({ ...(name ? { q: name } : {}), ...(tag ? { tag } : {}), page: String(p) }).toString()}`;
  return layout({
    title: `Components of ${options.organizationName}`,
    chrome: options.chrome,
    body: html`<h1>Components of ${options.organizationName}</h1>
<form method="get" class="inline" role="search" aria-label="Components">
<label for="q">Name</label><input type="search" id="q" name="q" value="${name}">
<label for="tag">Tag</label><input type="text" id="tag" name="tag" value="${tag}">
<button type="submit">Search</button>${filtered ? html` <a href="?">Clear</a>` : ''}
</form>
${listTable({
  caption: 'Most recently updated first',
  columns: ['Name', 'Tags', 'Variants', 'Updated'],
  rows: result.components.map((c) => html`<tr><th scope="row"><a href="/component/${c.id}">${c.name}</a>${c.description ? html`<div class="hint">${c.description}</div>` : ''}</th>
<td><ul class="tags">${c.tags.map((t) => html`<li><a href="?tag=${encodeURIComponent(t)}">${t}</a></li>`)}</ul></td><td>${c.variantsCount}</td><td>${when(c.updatedAt)}</td></tr>`),
  empty: result.page > 1
    ? emptyState(html`Page ${result.page} is past the end of the list. <a href="${link(1)}">Go to the first page</a>`)
    : filtered ? emptyState('No component matches.') : html`${emptyState('This organization has no component yet.')}${setupHint(options.mcpUrl)}`,
})}
${result.components.length === 0 ? '' : pageNumbers('Pages', result.page, result.hasNextPage, link)}`,
  });
}
