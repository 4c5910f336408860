import { createVariantLoaders, type StaticExportDeps } from '@cp/consume';
import type { Repositories } from '@cp/domain';
import { createObjectStore, type S3Config } from '@cp/storage';

/**
 * The static export's stores on one S3 endpoint: the variants' bucket (read) and the export
 * bucket (written), created when missing, as the other services create theirs.
 */
export async function openStaticExport(options: {
  s3: S3Config;
  exportBucket: string;
  prefix: string;
  cacheBytes: number;
  repos: Repositories;
}): Promise<StaticExportDeps> {
  const objects = createObjectStore(options.s3);
  const store = createObjectStore({ ...options.s3, bucket: options.exportBucket });
  await store.ensureBucket();
  return {
    repos: options.repos,
    loaders: createVariantLoaders(objects, options.cacheBytes),
    store,
    clock: { now: () => new Date() },
    prefix: options.prefix,
  };
}
