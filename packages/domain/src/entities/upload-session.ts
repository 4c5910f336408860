export const UploadState = {
  Pending: 'pending',
  Confirmed: 'confirmed',
  Expired: 'expired',
} as const;
export type UploadState = (typeof UploadState)[keyof typeof UploadState];

/** What a confirmed upload produced; stored so that confirming twice answers the same. */
export interface UploadResult {
  readonly componentId: string;
  readonly componentName: string;
  readonly variantId: string;
  readonly variantSequence: number;
  readonly organizationId: string;
  readonly isNewComponent: boolean;
}

export interface UploadSession {
  readonly id: string;
  readonly userId: string;
  readonly organizationId: string;
  /** The component to add a variant to, or null to create a component named `componentName`. */
  readonly componentId: string | null;
  readonly componentName: string;
  readonly stagingKey: string;
  readonly state: UploadState;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly result: UploadResult | null;
  /**
   * When the expiry sweep removed the staging object; null until then. The presigned
   * URL works until `expiresAt` whatever the state, so a PUT after confirm can put an
   * object back: the sweep removes it once the URL has expired, once per session.
   */
  readonly stagingRemovedAt: Date | null;
}
