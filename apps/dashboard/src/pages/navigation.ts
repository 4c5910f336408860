import { can, canReadAuditTrail, Permission, type Role } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';

interface Item {
  readonly href: string;
  readonly label: string;
  /** Other paths that belong to this item (a component's page to Components), matched with what lies below them. */
  readonly also?: readonly string[];
  /** Only the path itself: `/orgs` holds every organization's pages below it. */
  readonly exact?: boolean;
}

interface Group {
  readonly id: string;
  readonly label: string;
  readonly items: readonly Item[];
}

/** The groups of the main navigation; an organization's groups only on its pages, and only the links its role may follow. */
export function navigationGroups(organizationId: string | null, role: Role | undefined): Group[] {
  const account: Group = {
    id: 'nav-account',
    label: 'Account',
    items: [
      { href: '/orgs', label: 'Organizations', exact: true },
      { href: '/applications', label: 'Connected applications' },
    ],
  };
  if (organizationId === null) return [account];
  const base = `/orgs/${organizationId}`;
  // The domain refuses the other roles anyway; the links are left out so nobody follows them to a refusal.
  const setup = role !== undefined && can(role, Permission.ManageSetup);
  const audit = role !== undefined && canReadAuditTrail(role);
  const organization: Item[] = [
    { href: `${base}/members`, label: 'Members', also: [`${base}/invitations`] },
    // Every role: members see and revoke their own tokens.
    { href: `${base}/api-tokens`, label: 'API tokens' },
    ...(setup ? [{ href: `${base}/webhooks`, label: 'Webhooks' }, { href: `${base}/export`, label: 'Static export' }] : []),
    ...(audit ? [{ href: `${base}/audit`, label: 'Audit trail' }] : []),
    { href: `${base}/settings`, label: 'Settings' },
  ];
  return [
    {
      id: 'nav-build',
      label: 'Build',
      items: [
        { href: `${base}/components`, label: 'Components', also: ['/component'] },
        { href: `${base}/flows`, label: 'Flows', also: ['/flows'] },
      ],
    },
    {
      id: 'nav-release',
      label: 'Release',
      items: [
        { href: `${base}/environments`, label: 'Environments' },
        { href: `${base}/release-requests`, label: 'Release requests' },
        { href: `${base}/previews`, label: 'Previews' },
        // Every role reads it: the figures that decide whether a release stays.
        { href: `${base}/usage`, label: 'Usage' },
      ],
    },
    { id: 'nav-organization', label: 'Organization', items: organization },
    account,
  ];
}

const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

function matchLength(item: Item, path: string): number {
  if (item.exact === true) return path === item.href ? item.href.length : -1;
  return Math.max(-1, ...[item.href, ...(item.also ?? [])].filter((prefix) => under(path, prefix)).map((prefix) => prefix.length));
}

/** The item the path belongs to: the longest prefix that matches, so a page below two items belongs to the closer one. */
function currentItem(groups: readonly Group[], path: string): Item | null {
  let best: { item: Item; length: number } | null = null;
  for (const item of groups.flatMap((group) => group.items)) {
    const length = matchLength(item, path);
    if (length >= 0 && (best === null || length > best.length)) best = { item, length };
  }
  return best?.item ?? null;
}

/**
 * The main navigation. A disclosure, so that narrow screens keep it folded without scripts
 * (the stylesheet unfolds it for good on wide screens); the summary says where you are.
 */
export function navigation(groups: readonly Group[], path: string, switcher: SafeHtml): SafeHtml {
  const current = currentItem(groups, path);
  const where = groups.find((group) => current !== null && group.items.includes(current));
  return html`<nav class="site" aria-label="Main"><details><summary>Menu${where === undefined || current === null ? '' : html` <span class="where">${where.label} · ${current.label}</span>`}</summary>
<div class="groups">
${switcher}
${groups.map(
    (group) => html`<div class="group"><span class="group-label" id="${group.id}">${group.label}</span><ul aria-labelledby="${group.id}">${group.items.map(
      (item) => html`<li><a href="${item.href}"${item === current ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
    )}</ul></div>`,
  )}</div>
</details></nav>`;
}
