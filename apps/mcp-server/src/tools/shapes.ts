import type { Component, Variant } from '@cp/domain';
import { z } from 'zod';
import { isoTime } from './define.js';

/** Output pieces several tools share. */
export const componentShape = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  variantsCount: z.int(),
  tags: z.array(z.string()),
});

export const variantShape = z.object({
  variantId: z.string(),
  sequence: z.int().describe('Version number within the component: 1, 2, 3...'),
  size: z.int().describe('Bytes.'),
  sha256: z.string().describe('Lower-case hex.'),
  integrity: z.string().describe('Subresource Integrity value (sha384-...).'),
  createdAt: z.string().describe('ISO 8601 UTC.'),
});

export const toComponent = (component: Component): z.infer<typeof componentShape> => ({
  id: component.id,
  name: component.name,
  description: component.description,
  variantsCount: component.variantsCount,
  tags: [...component.tags],
});

export const toVariant = (variant: Variant): z.infer<typeof variantShape> => ({
  variantId: variant.id,
  sequence: variant.sequence,
  size: variant.size,
  sha256: variant.sha256,
  integrity: variant.integrity,
  createdAt: isoTime(variant.createdAt),
});
