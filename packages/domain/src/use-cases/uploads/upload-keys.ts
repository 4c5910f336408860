/** Where a client's PUT lands; removed after confirm or expiry. */
export const stagingKey = (uploadId: string): string => `uploads/${uploadId}/index.html`;

/** Immutable: written once per variant, never overwritten. */
export const variantKey = (componentId: string, variantId: string): string =>
  `components/${componentId}/variants/${variantId}/index.html`;
