/*
 * Where the static export puts things (docs/static-export.md). Inside the export
 * bucket, each organization has its own folder, `<prefix><organizationId>/`, so no organization
 * can write another's objects or manifest. Paths inside it are what the manifest lists and what
 * the host SDK fetches relative to the organization's base URL.
 */

export const MANIFEST_PATH = 'manifest.json';

/** The object that mirrors `GET /consume?id=<componentId>&env=<environment>`. */
export const componentPath = (componentId: string, environment: string): string =>
  `components/${componentId}/${environment}.json`;

/** The object that mirrors `GET /consume?id=<componentId>&env=<environment>&arm=<arm>` while an experience or a rollout is live. */
export const armPath = (componentId: string, environment: string, arm: string): string =>
  `components/${componentId}/${environment}/arms/${arm}.json`;

/**
 * Where iframe isolation loads its frame document from an export (the host SDK asks for
 * `<base>/host/frame/<its build's file name>`). Every build's file is kept, so an SDK file
 * pinned to an earlier build still finds its own.
 */
export const FRAME_FOLDER = 'host/frame/';

/** The frame document's file is named by its content, as the delivery API serves it: never changes once written. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The organization's folder in the export bucket; `prefix` is empty or ends with `/`. */
export const organizationFolder = (prefix: string, organizationId: string): string =>
  `${prefix}${organizationId}/`;

/**
 * Cache-Control of every exported object: as the delivery API's released answers, so a CDN
 * keeps a release at most about a minute and a half behind, and serves the last copy for a day
 * while the bucket fails.
 */
export const EXPORT_CACHE_CONTROL =
  'public, max-age=30, stale-while-revalidate=60, stale-if-error=86400';

/** The organization's export base URL: EXPORT_PUBLIC_URL (the bucket's root as served, no trailing slash) and its folder. */
export const exportBaseUrl = (publicUrl: string, prefix: string, organizationId: string): string =>
  `${publicUrl}/${organizationFolder(prefix, organizationId)}`.slice(0, -1);
