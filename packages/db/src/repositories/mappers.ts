import type {
  Component,
  ComponentSummary,
  Environment,
  Flow,
  Invitation,
  Organization,
  PreviewKey,
  Release,
  ReleaseEvent,
  UploadResult,
  UploadSession,
  User,
  Variant,
} from '@cp/domain';
import type * as Rows from '../generated/prisma/client.js';

/* Database rows -> domain entities. Columns the domain does not know (emailKey, nameKey) stop here. */

export const toUser = (row: Rows.User): User => ({
  id: row.id,
  email: row.email,
  displayName: row.displayName,
  defaultOrganizationId: row.defaultOrganizationId,
  createdAt: row.createdAt,
});

export const toOrganization = (row: Rows.Organization): Organization => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt,
  privatePreviews: row.privatePreviews,
});

/** The secret's hash stays in the database. */
export const toPreviewKey = (row: Rows.PreviewKey): PreviewKey => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  prefix: row.prefix,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
});

/** The token's hash and the email key stay in the database; the role column never holds owner (a CHECK). */
export const toInvitation = (row: Rows.Invitation): Invitation => ({
  id: row.id,
  organizationId: row.organizationId,
  email: row.email,
  role: row.role as Invitation['role'],
  invitedBy: row.invitedBy,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  acceptedAt: row.acceptedAt,
  acceptedBy: row.acceptedBy,
  revokedAt: row.revokedAt,
  revokedBy: row.revokedBy,
});

/** Also the shape of the raw-SQL component queries (they alias columns to these names). */
export type ComponentRow = Omit<Rows.Component, 'tags'> & { tags: string[] | null };

export const toComponent = (row: ComponentRow): Component => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  description: row.description,
  tags: row.tags ?? [], // the column is nullable: Prisma cannot declare a list NOT NULL
  variantsCount: row.variantsCount,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The shape of the listing queries (SUMMARY_COLUMNS in components.ts). */
export type ComponentSummaryRow = Pick<
  ComponentRow,
  'id' | 'name' | 'description' | 'tags' | 'variantsCount' | 'updatedAt'
>;

export const toComponentSummary = (row: ComponentSummaryRow): ComponentSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  tags: row.tags ?? [],
  variantsCount: row.variantsCount,
  updatedAt: row.updatedAt,
});

export const toVariant = (row: Rows.Variant): Variant => ({
  id: row.id,
  componentId: row.componentId,
  sequence: row.sequence,
  objectKey: row.objectKey,
  size: row.size,
  sha256: row.sha256,
  integrity: row.integrity,
  createdBy: row.createdById,
  createdAt: row.createdAt,
});

export const toEnvironment = (row: Rows.Environment): Environment => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  protected: row.protected,
  createdAt: row.createdAt,
});

type WithEnvironmentName = { environment: { name: string } };

export const toRelease = (row: Rows.Release & WithEnvironmentName): Release => ({
  componentId: row.componentId,
  environmentId: row.environmentId,
  environmentName: row.environment.name,
  variantId: row.variantId,
  releasedBy: row.releasedById,
  releasedAt: row.releasedAt,
});

export const toReleaseEvent = (row: Rows.ReleaseEvent & WithEnvironmentName): ReleaseEvent => ({
  id: row.id,
  componentId: row.componentId,
  environmentId: row.environmentId,
  environmentName: row.environment.name,
  variantId: row.variantId,
  previousVariantId: row.previousVariantId,
  releasedBy: row.releasedById,
  releasedAt: row.releasedAt,
});

export const toUploadSession = (row: Rows.UploadSession): UploadSession => ({
  id: row.id,
  userId: row.userId,
  organizationId: row.organizationId,
  componentId: row.componentId,
  componentName: row.componentName,
  stagingKey: row.stagingKey,
  state: row.state,
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
  result: row.result === null ? null : toUploadResult(row.id, row.result),
  stagingRemovedAt: row.stagingRemovedAt,
});

/** The stored result is JSON we wrote ourselves; check it rather than trust a cast. */
function toUploadResult(sessionId: string, json: unknown): UploadResult {
  const value = (json ?? {}) as Record<string, unknown>;
  const text = (key: string) => typeof value[key] === 'string';
  if (
    text('componentId') &&
    text('componentName') &&
    text('variantId') &&
    text('organizationId') &&
    typeof value.variantSequence === 'number' &&
    typeof value.isNewComponent === 'boolean'
  ) {
    return {
      componentId: value.componentId as string,
      componentName: value.componentName as string,
      variantId: value.variantId as string,
      variantSequence: value.variantSequence,
      organizationId: value.organizationId as string,
      isNewComponent: value.isNewComponent,
    };
  }
  throw new Error(`upload session ${sessionId} has a malformed stored result`);
}

type FlowWithComponents = Rows.Flow & { components: { componentId: string }[] };

/** `components` must be loaded ordered by position. */
export const toFlow = (row: FlowWithComponents): Flow => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  status: row.status,
  componentIds: row.components.map((entry) => entry.componentId),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
