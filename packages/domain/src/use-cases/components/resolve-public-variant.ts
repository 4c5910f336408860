import type { Component, Variant } from '../../entities/component.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { canReadPreview } from '../previews/can-read-preview.js';
import { resolveVariant, type ResolvedVariant } from './resolve-variant.js';

export interface PublicVariant extends ResolvedVariant {
  readonly component: Component;
  readonly variant: Variant;
  /** A preview of an organization with private previews: never to be kept where a keyless caller reaches it. */
  readonly privatePreview: boolean;
}

/**
 * The 404 of a component that does not exist, and of a private preview asked
 * for without a valid key: one text for both, so it confirms nothing.
 */
const componentNotFound = (
  componentId: string,
  preview: boolean,
  privatePreview: boolean,
): DomainError =>
  new DomainError(
    ErrorCode.NotFound,
    preview
      ? `Component "${componentId}" was not found, or its organization keeps previews private and no valid preview key was sent.`
      : `Component "${componentId}" was not found, or you do not have access to it.`,
    { resource: 'Component', privatePreview },
  );

/**
 * Public read for delivery (/consume): the variant released to `environment`,
 * or the latest one (the preview). Component ids are unguessable UUIDs but
 * visible in host pages, so released UI needs no credential; previews of an
 * organization that made them private need one of its preview keys. The names
 * of such an organization's environments are not listed to anyone here.
 */
export async function resolvePublicVariant(
  {
    componentId,
    environment,
    previewKey = null,
  }: { componentId: string; environment?: string | undefined; previewKey?: string | null },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<PublicVariant> {
  const preview = environment === undefined;
  const component = isUuid(componentId) ? await deps.repos.components.findById(componentId) : null;
  if (!component) throw componentNotFound(componentId, preview, false);
  const organization = await deps.repos.organizations.findById(component.organizationId);
  // Fail closed: an organization that cannot be read is treated as private.
  const privateOrganization = organization?.privatePreviews ?? true;
  if (
    preview &&
    !(await canReadPreview(
      {
        organization: { id: component.organizationId, privatePreviews: privateOrganization },
        presentedKey: previewKey,
      },
      deps,
    ))
  ) {
    throw componentNotFound(componentId, true, true);
  }
  const resolved = await resolveVariant(component, environment, deps, {
    listKnownEnvironments: !privateOrganization,
  });
  if (!resolved.variant) {
    throw new DomainError(ErrorCode.NotFound, `Component "${component.name}" has no variant yet.`, {
      resource: 'Variant',
    });
  }
  return {
    ...resolved,
    component,
    variant: resolved.variant,
    privatePreview: preview && privateOrganization,
  };
}
