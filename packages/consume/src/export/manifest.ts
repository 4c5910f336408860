import type { ExportedRelease, LiveAssignment } from '@cp/domain';
import { z } from 'zod';
import 'zod-openapi';
import { variantArmsOf, variantName } from '../consume-item.js';
import { armPath, componentPath } from './export-layout.js';

/** What is exported of one component environment: its release and what is live on top of it. */
export interface ExportedEnvironment {
  readonly release: ExportedRelease;
  readonly assignment: LiveAssignment | null;
}

const ManifestArm = z
  .object({
    variant: z.object({ id: z.string(), name: z.string().meta({ example: 'v7' }) }),
    path: z.string().meta({
      description: "The `/consume?id=&env=&arm=` body, relative to the organization's export base URL.",
      example: 'components/7aa63dd6-bdf9-434e-8f09-17bb243978e1/prod/arms/v7.json',
    }),
  })
  .meta({ id: 'ExportManifestArm' });

export const ManifestRelease = z
  .object({
    variant: z
      .object({ id: z.string(), name: z.string().meta({ example: 'v3' }) })
      .meta({
        description: 'The released variant: its id and `v<sequence>` name, as in the body.',
      }),
    path: z.string().meta({
      description:
        "The object's path relative to the organization's export base URL: the `/consume?id=&env=` body, byte for byte.",
      example: 'components/7aa63dd6-bdf9-434e-8f09-17bb243978e1/prod.json',
    }),
    releasedAt: z
      .string()
      .meta({ description: 'When this variant was released to the environment (ISO 8601).' }),
    assignment: z
      .object({
        revision: z.number().int().meta({ description: 'The descriptor `revision` the objects carry.' }),
        arms: z.record(z.string(), ManifestArm).meta({ description: 'By arm name: each arm that serves a variant (the fallback is `path`).' }),
      })
      .optional()
      .meta({ description: 'Only while an experience or a rollout is live in the environment (docs/experiences.md "Delivery").' }),
  })
  .meta({ id: 'ExportManifestRelease' });

export const ExportManifest = z
  .object({
    organizationId: z.string(),
    generatedAt: z
      .string()
      .meta({ description: 'When the export wrote this manifest (ISO 8601).' }),
    frameDocument: z.string().meta({
      description:
        "Path of the frame document iframe isolation loads (the host SDK's build names it by its hash): `text/html`, cached as immutable.",
      example: 'host/frame/v1.3f9a0c2be41d7a65.html',
    }),
    components: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Component id.' }),
          name: z.string(),
          environments: z
            .record(z.string(), ManifestRelease)
            .meta({ description: 'By environment name: what is released there.' }),
        }),
      )
      .meta({
        description:
          'Components with at least one release, by name (case-insensitive), then id. Unreleased ones are not exported.',
      }),
  })
  .meta({
    id: 'ExportManifest',
    description:
      '`manifest.json` of an organization\'s static export (docs/static-export.md).',
  });

export type ExportManifest = z.infer<typeof ExportManifest>;

/** The manifest of a set of current releases (ordered as StaticExports.listReleased gives them). */
export function manifestOf(
  organizationId: string,
  exported: readonly ExportedEnvironment[],
  frameDocument: string,
  generatedAt: Date,
): ExportManifest {
  const components: ExportManifest['components'] = [];
  for (const { release, assignment } of exported) {
    let entry = components.at(-1);
    if (entry?.id !== release.component.id) {
      entry = { id: release.component.id, name: release.component.name, environments: {} };
      components.push(entry);
    }
    entry.environments[release.environmentName] = {
      variant: { id: release.variant.id, name: variantName(release.variant) },
      path: componentPath(release.component.id, release.environmentName),
      releasedAt: release.releasedAt.toISOString(),
      ...(assignment === null ? {} : { assignment: { revision: assignment.revision, arms: manifestArms(release, assignment) } }),
    };
  }
  return { organizationId, generatedAt: generatedAt.toISOString(), frameDocument, components };
}

function manifestArms(release: ExportedRelease, assignment: LiveAssignment): Record<string, z.infer<typeof ManifestArm>> {
  const arms: Record<string, z.infer<typeof ManifestArm>> = {};
  for (const [arm, variantId] of variantArmsOf(assignment))
    arms[arm] = { variant: { id: variantId, name: arm }, path: armPath(release.component.id, release.environmentName, arm) };
  return arms;
}

/** What an object's bytes depend on: the variant (immutable), the component's name, and the descriptor's revision. */
export const objectSignature = (variantId: string, componentName: string, revision: number | null): string =>
  `${variantId}:${componentName}:${revision ?? ''}`;

/** The signature of the frame document in `writtenBy`: its path names its content. */
export const FRAME_WRITTEN = 'frame';

/** What an earlier manifest says each path holds (variant id and component name), to skip unchanged objects. */
export function writtenBy(manifest: unknown): Map<string, string> {
  const written = new Map<string, string>();
  const parsed = ExportManifest.safeParse(manifest);
  if (!parsed.success) return written;
  written.set(parsed.data.frameDocument, FRAME_WRITTEN);
  for (const component of parsed.data.components) {
    for (const release of Object.values(component.environments)) {
      const revision = release.assignment?.revision ?? null;
      written.set(release.path, objectSignature(release.variant.id, component.name, revision));
      for (const arm of Object.values(release.assignment?.arms ?? {}))
        written.set(arm.path, objectSignature(arm.variant.id, component.name, revision));
    }
  }
  return written;
}
