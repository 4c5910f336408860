import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createVariantLoaders, frameDocumentOf, type FrameDocument, type StaticExportDeps } from '@cp/consume';
import type { Repositories } from '@cp/domain';
import { createObjectStore, type S3Config } from '@cp/storage';

/** The host SDK's frame document as its build wrote it; a missing build stops the worker with the command that makes it. */
export function readFrameDocument(file = '@component-platform/host/dist/frame.html'): FrameDocument {
  try {
    return frameDocumentOf(readFileSync(createRequire(import.meta.url).resolve(file)));
  } catch {
    throw new Error(`The host SDK's frame document ${file} cannot be read: run \`pnpm --filter @component-platform/host build\`.`);
  }
}

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
    frameDocument: readFrameDocument(),
  };
}
