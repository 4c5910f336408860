import { invalidInput, type ComponentPageView, type ListPosition } from '@cp/domain';
import type { Request } from 'express';
import type { ComponentPageLinks } from '../pages/component-page.js';
import type { PagerLinks } from '../pages/pager.js';
import { query } from './context.js';

/**
 * Where a person is on the component page: which variant is previewed, and how far back each
 * list is (keyset cursors: a variant sequence for the variants, a release event id for the
 * history). Every link on the page keeps what it does not change.
 */
export interface ComponentPageQuery {
  /** A variant id; null: the latest variant. */
  readonly variant: string | null;
  /** Variants with a lower sequence; undefined: the latest variants. */
  readonly variantsBefore: number | undefined;
  /** Release events older than this event; at most one of the two. */
  readonly releasesBefore: string | undefined;
  /** Release events newer than this event. */
  readonly releasesAfter: string | undefined;
}

/** An empty parameter is no parameter. A malformed `variants_before` is bad input (400); ids are checked by the domain (404). */
export function parseComponentPageQuery(req: Request): ComponentPageQuery {
  const before = query(req, 'variants_before');
  if (before !== '' && !/^[1-9][0-9]{0,14}$/.test(before)) {
    throw invalidInput('variants_before', `"${before.slice(0, 20)}" is not a variant number (1, 2, 3…): follow "Older variants" from the component page.`);
  }
  const optional = (name: string) => query(req, name) || undefined;
  return {
    variant: query(req, 'variant') || null,
    variantsBefore: before === '' ? undefined : Number(before),
    releasesBefore: optional('releases_before'),
    releasesAfter: optional('releases_after'),
  };
}

/** The component page's URL for `state`, with `anchor` (a section's id) when given. */
export function componentPageHref(componentId: string, state: ComponentPageQuery, anchor?: string): string {
  const params = new URLSearchParams();
  if (state.variant !== null) params.set('variant', state.variant);
  if (state.variantsBefore !== undefined) params.set('variants_before', String(state.variantsBefore));
  if (state.releasesBefore !== undefined) params.set('releases_before', state.releasesBefore);
  if (state.releasesAfter !== undefined) params.set('releases_after', state.releasesAfter);
  const search = params.toString();
  return `/component/${componentId}${search === '' ? '' : `?${search}`}${anchor === undefined ? '' : `#${anchor}`}`;
}

/** The page's links from `state`: each list's pager (keeping the other list's position and the preview), and the preview links. */
export function componentPageLinks(view: ComponentPageView, state: ComponentPageQuery): ComponentPageLinks {
  const href = (change: Partial<ComponentPageQuery>, anchor: string) => componentPageHref(view.component.id, { ...state, ...change }, anchor);
  const variants = (variantsBefore: number | undefined) => href({ variantsBefore }, 'variants');
  const releases = (releasesBefore: string | undefined, releasesAfter: string | undefined) => href({ releasesBefore, releasesAfter }, 'release-history');
  return {
    variants: pagerLinks(view.variants, { latest: variants(undefined), newer: variants, older: variants }),
    history: pagerLinks(view.history, { latest: releases(undefined, undefined), newer: (after) => releases(undefined, after), older: (before) => releases(before, undefined) }),
    preview: (variantId) => href({ variant: variantId }, 'preview'),
  };
}

function pagerLinks<Cursor>(position: ListPosition<Cursor>, hrefs: { latest: string; newer: (cursor: Cursor) => string; older: (cursor: Cursor) => string }): PagerLinks {
  return {
    latest: position.isLatest ? null : hrefs.latest,
    newer: position.newer === null ? null : position.newer === 'latest' ? hrefs.latest : hrefs.newer(position.newer),
    older: position.older === null ? null : hrefs.older(position.older),
  };
}
