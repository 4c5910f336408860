import { sdkError } from './problem.js';
import type { HtmlLoader } from './types.js';

/** One variant of a component as `/consume` (and `/flow?resolve=components`) carries it. */
export interface Variant {
  readonly id: string;
  readonly name: string;
  readonly loader: HtmlLoader;
}

type Json = Record<string, unknown> | undefined;

/** The first of `consume_variant`, checked enough that rendering cannot trip over a missing field. */
export function variantIn(variants: unknown): Variant {
  const variant = (Array.isArray(variants) ? variants[0] : undefined) as Json;
  const loader = variant?.loader as Json;
  if (
    typeof variant?.id !== 'string' ||
    loader?.type !== 'HTMLLoader' ||
    typeof loader.HTML !== 'string' ||
    !Array.isArray(loader.scripts) ||
    !Array.isArray(loader.styles)
  ) {
    throw sdkError('BAD_RESPONSE', 'The answer does not carry a variant with an HTML loader.');
  }
  return variant as unknown as Variant;
}

/** The variant of a `/consume` answer (`item.consume_variant[0]`). */
export const consumedVariant = (body: unknown): Variant => variantIn(((body as Json)?.item as Json)?.consume_variant);
