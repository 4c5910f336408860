export const FlowStatus = { Draft: 'draft', Published: 'published' } as const;
export type FlowStatus = (typeof FlowStatus)[keyof typeof FlowStatus];

/** Legacy: an ordered list of components, served by the deprecated /flow endpoint. */
export interface Flow {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly status: FlowStatus;
  readonly componentIds: readonly string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
