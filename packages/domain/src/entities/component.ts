export interface Component {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly variantsCount: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a listing of components shows: a row reads no more than this. */
export type ComponentSummary = Pick<Component, 'id' | 'name' | 'description' | 'tags' | 'variantsCount' | 'updatedAt'>;

/** An immutable uploaded version of a component. */
export interface Variant {
  readonly id: string;
  readonly componentId: string;
  /** 1, 2, 3... per component, in upload order; never reused. */
  readonly sequence: number;
  readonly objectKey: string;
  readonly size: number;
  /** Lowercase hex. */
  readonly sha256: string;
  /** Subresource Integrity value, `sha384-<base64>`. */
  readonly integrity: string;
  readonly createdBy: string;
  readonly createdAt: Date;
}
