import type { SafeHtml } from '@cp/web-forms';
import { choiceLinks } from './usage/choice-links.js';

/** The tabs of a component: its page and its usage, the one shown marked. */
export const componentTabs = (links: { readonly component: string; readonly usage: string }, current: 'overview' | 'usage'): SafeHtml =>
  choiceLinks('Component', [
    { label: 'Overview', href: links.component, current: current === 'overview' },
    { label: 'Usage', href: links.usage, current: current === 'usage' },
  ]);
