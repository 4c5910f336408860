import { buildHtmlLoader, consumeItemOf, jsonBody, type ConsumeResponse } from '@cp/consume';
import type { GoodVersion } from './component-versions.js';

/** The one component the dev server serves: its id is new each start, its organization none. */
export interface DevComponent {
  readonly id: string;
  readonly name: string;
  readonly organizationId: string;
}

export interface ConsumeAnswer {
  readonly body: Buffer;
  /** Strong, per variant: the SDK revalidates with it on every change event. */
  readonly etag: string;
}

/**
 * The /consume body of the good version, built by the same functions the delivery API and
 * the static export use (@cp/consume), so the SDK reads exactly what it would read in production.
 */
export function consumeAnswerOf(component: DevComponent, version: GoodVersion): ConsumeAnswer {
  const { document } = version;
  const response: ConsumeResponse = {
    item: consumeItemOf(component, [{ id: version.variantId, name: version.name, loader: buildHtmlLoader(document.html, document.integrity) }]),
  };
  return { body: jsonBody(response), etag: `"${document.sha256.slice(0, 32)}"` };
}
